/// A run: characters with consecutive counters from one replica, typed
/// together, side by side in the document, all deleted or all not. The
/// first has the run's origins; each next one has the previous as its
/// origin left and the same origin right.
struct Run {
    /// Index into the note's replica table (not the replica id itself).
    var replica: Int32
    var deleted: Bool
    var counter: Int
    var length: Int
    /// Where the characters are in the note's scalar store; -1 for a
    /// tombstone whose text was never known (decoded from a state).
    var content: Int
    var originLeft: PackedID
    var originRight: PackedID

    var end: Int { counter + length }

    /// The id of character `offset` of this run.
    func id(at offset: Int) -> PackedID { PackedID(replica: replica, counter: counter + offset) }

    /// The part of the run from `offset` on, as a run of its own.
    func suffix(from offset: Int) -> Run {
        var tail = self
        tail.counter += offset
        tail.length -= offset
        if content >= 0 { tail.content += offset }
        tail.originLeft = id(at: offset - 1)
        return tail
    }

    /// Whether `next`, placed right after this run, continues it.
    func isContinued(by next: Run) -> Bool {
        next.replica == replica && next.counter == end && next.deleted == deleted
            && next.originLeft == id(at: length - 1) && next.originRight == originRight
            && (content < 0 ? next.content < 0 : next.content == content + length)
    }
}

/// A character id with the replica as an index into the note's table;
/// `replica == -1` means none (the start or the end of the document).
struct PackedID: Equatable {
    var replica: Int32
    var counter: Int

    static let none = PackedID(replica: -1, counter: 0)
    var isNone: Bool { replica < 0 }
}

/// A node of the B+ tree that holds the runs in document order, counting in
/// each subtree the visible characters (to find a position) and all of them,
/// tombstones included (for the integration scan). Leaves are also linked
/// left to right.
final class RunNode {
    static let maximumRuns = 64
    static let maximumChildren = 32

    let isLeaf: Bool
    var runs: ContiguousArray<Run> = []
    var children: ContiguousArray<RunNode> = []
    var visible = 0
    var total = 0
    // unowned(unsafe): a child never outlives the tree that holds it, and the
    // tree is only touched by its owner, so these back-pointers need neither
    // reference counting nor a weak table.
    unowned(unsafe) var parent: RunNode?
    unowned(unsafe) var nextLeaf: RunNode?
    unowned(unsafe) var previousLeaf: RunNode?

    init(isLeaf: Bool) {
        self.isLeaf = isLeaf
    }

    /// Adds `visible` and `total` to this node's counts and its ancestors'.
    func adjust(visible: Int, total: Int) {
        var node: RunNode? = self
        while let current = node {
            current.visible += visible
            current.total += total
            node = current.parent
        }
    }

    func index(of child: RunNode) -> Int {
        // A linear search over at most 32 children beats keeping indices up to date.
        children.firstIndex { $0 === child } ?? 0
    }

    /// How many characters (tombstones included) come before run `runIndex`
    /// of this leaf in the whole document.
    func rawPosition(ofRun runIndex: Int) -> Int {
        var position = 0
        for index in 0..<runIndex { position += runs[index].length }
        var child = self
        while let parent = child.parent {
            for sibling in parent.children {
                if sibling === child { break }
                position += sibling.total
            }
            child = parent
        }
        return position
    }

    /// Same, counting visible characters only.
    func visiblePosition(ofRun runIndex: Int) -> Int {
        var position = 0
        for index in 0..<runIndex where !runs[index].deleted { position += runs[index].length }
        var child = self
        while let parent = child.parent {
            for sibling in parent.children {
                if sibling === child { break }
                position += sibling.visible
            }
            child = parent
        }
        return position
    }
}

/// A place in the document: before character `offset` of run `runIndex` in
/// `leaf`, or, with `runIndex == leaf.runs.count`, after the last character
/// of the last leaf (the end).
struct TextCursor {
    unowned(unsafe) var leaf: RunNode
    var runIndex: Int
    var offset: Int

    var isAtEnd: Bool { runIndex == leaf.runs.count }

    var run: Run { leaf.runs[runIndex] }

    /// Moves forward `count` characters (tombstones included); stops at the end.
    mutating func advance(by count: Int) {
        var remaining = count
        while remaining > 0, !isAtEnd {
            let left = leaf.runs[runIndex].length - offset
            if remaining < left {
                offset += remaining
                return
            }
            remaining -= left
            offset = 0
            runIndex += 1
            normalize()
        }
    }

    /// Moves off the end of a leaf onto the next leaf's first run.
    mutating func normalize() {
        while runIndex == leaf.runs.count, let next = leaf.nextLeaf {
            leaf = next
            runIndex = 0
            offset = 0
        }
    }
}
