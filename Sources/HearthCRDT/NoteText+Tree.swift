/// Finding places in the run tree, and inserting and deleting there.
extension NoteText {
    /// Where text inserted at visible `position` goes: before the visible
    /// character at `position`, after any tombstones before it; past the
    /// last visible character, at the very end.
    func cursor(beforeVisible position: Int) -> TextCursor {
        var node = root
        var remaining = position
        while !node.isLeaf {
            let children = node.children
            var chosen = children.count - 1
            for index in 0..<children.count - 1 {
                let visible = children[index].visible
                if remaining < visible {
                    chosen = index
                    break
                }
                remaining -= visible
            }
            node = children[chosen]
        }
        for (index, run) in node.runs.enumerated() where !run.deleted {
            if remaining < run.length { return TextCursor(leaf: node, runIndex: index, offset: remaining) }
            remaining -= run.length
        }
        return TextCursor(leaf: node, runIndex: node.runs.count, offset: 0)
    }

    /// The place of the character with this id; nil when it is not here.
    func cursor(at id: PackedID) -> TextCursor? {
        guard !id.isNone else { return nil }
        let counters = leaves[Int(id.replica)]
        guard id.counter < counters.count, let leaf = counters[id.counter] else { return nil }
        for (index, run) in leaf.runs.enumerated()
        where run.replica == id.replica && run.counter <= id.counter && id.counter < run.end {
            return TextCursor(leaf: leaf, runIndex: index, offset: id.counter - run.counter)
        }
        return nil
    }

    /// The start of the document.
    func startCursor() -> TextCursor {
        var cursor = TextCursor(leaf: firstLeaf, runIndex: 0, offset: 0)
        cursor.normalize()
        return cursor
    }

    /// The character just before `cursor` (tombstones count), or none.
    func character(before cursor: TextCursor) -> PackedID {
        if cursor.offset > 0 { return cursor.leaf.runs[cursor.runIndex].id(at: cursor.offset - 1) }
        if cursor.runIndex > 0 {
            let run = cursor.leaf.runs[cursor.runIndex - 1]
            return run.id(at: run.length - 1)
        }
        var leaf = cursor.leaf.previousLeaf
        while let current = leaf {
            if let run = current.runs.last { return run.id(at: run.length - 1) }
            leaf = current.previousLeaf
        }
        return .none
    }

    /// Characters (tombstones included) before `cursor`.
    func rawPosition(of cursor: TextCursor) -> Int {
        cursor.leaf.rawPosition(ofRun: cursor.runIndex) + cursor.offset
    }

    /// The raw position of a character, -1 for none at the start.
    func rawPosition(of id: PackedID, noneMeans fallback: Int) -> Int {
        guard let cursor = cursor(at: id) else { return fallback }
        return rawPosition(of: cursor)
    }

    // MARK: Inserting

    /// Puts `run` at `cursor`, splitting the run there if needed, extending
    /// the previous run when the new one continues it (the typing case).
    func insert(_ run: Run, at cursor: TextCursor) {
        let leaf = cursor.leaf
        var index = cursor.runIndex
        if cursor.offset > 0 {
            let tail = leaf.runs[index].suffix(from: cursor.offset)
            leaf.runs[index].length = cursor.offset
            leaf.runs.insert(tail, at: index + 1)
            index += 1
        }
        if index > 0, leaf.runs[index - 1].isContinued(by: run) {
            leaf.runs[index - 1].length += run.length
        } else {
            leaf.runs.insert(run, at: index)
        }
        leaf.adjust(visible: run.deleted ? 0 : run.length, total: run.length)
        record(run, in: leaf)
        if leaf.runs.count > RunNode.maximumRuns { split(leaf) }
    }

    /// Points the id index at `leaf` for every character of `run`.
    func record(_ run: Run, in leaf: RunNode) {
        let replica = Int(run.replica)
        if leaves[replica].count < run.end {
            leaves[replica].append(contentsOf: repeatElement(nil, count: run.end - leaves[replica].count))
        }
        for counter in run.counter..<run.end { leaves[replica][counter] = leaf }
    }

    private func split(_ leaf: RunNode) {
        let half = leaf.runs.count / 2
        let right = RunNode(isLeaf: true)
        right.runs = ContiguousArray(leaf.runs[half...])
        leaf.runs.removeSubrange(half...)
        for run in right.runs {
            right.total += run.length
            if !run.deleted { right.visible += run.length }
            record(run, in: right)
        }
        leaf.total -= right.total
        leaf.visible -= right.visible
        right.nextLeaf = leaf.nextLeaf
        right.previousLeaf = leaf
        leaf.nextLeaf?.previousLeaf = right
        leaf.nextLeaf = right
        insertChild(right, after: leaf)
    }

    private func splitBranch(_ branch: RunNode) {
        let half = branch.children.count / 2
        let right = RunNode(isLeaf: false)
        right.children = ContiguousArray(branch.children[half...])
        branch.children.removeSubrange(half...)
        for child in right.children {
            child.parent = right
            right.total += child.total
            right.visible += child.visible
        }
        branch.total -= right.total
        branch.visible -= right.visible
        insertChild(right, after: branch)
    }

    /// Adds `node`, carved out of `sibling`, right after it in the tree.
    private func insertChild(_ node: RunNode, after sibling: RunNode) {
        if let parent = sibling.parent {
            parent.children.insert(node, at: parent.index(of: sibling) + 1)
            node.parent = parent
            if parent.children.count > RunNode.maximumChildren { splitBranch(parent) }
        } else {
            let newRoot = RunNode(isLeaf: false)
            newRoot.children = [sibling, node]
            newRoot.total = sibling.total + node.total
            newRoot.visible = sibling.visible + node.visible
            sibling.parent = newRoot
            node.parent = newRoot
            root = newRoot
        }
    }

    // MARK: Deleting

    /// Marks every character of `span` deleted (those already deleted stay so).
    func markDeleted(_ span: IDSpan) {
        guard let replica = replicaIndexes[span.replica] else { return }
        var done = 0
        let length = Int(span.length)
        while done < length {
            guard let cursor = cursor(at: PackedID(replica: replica, counter: Int(span.counter) + done)) else { return }
            let run = cursor.run
            let take = min(run.length - cursor.offset, length - done)
            if !run.deleted { markDeleted(in: cursor.leaf, runIndex: cursor.runIndex, offset: cursor.offset, count: take) }
            done += take
        }
    }

    private func markDeleted(in leaf: RunNode, runIndex: Int, offset: Int, count: Int) {
        var index = runIndex
        if offset > 0 {
            let tail = leaf.runs[index].suffix(from: offset)
            leaf.runs[index].length = offset
            leaf.runs.insert(tail, at: index + 1)
            index += 1
        }
        if leaf.runs[index].length > count {
            let tail = leaf.runs[index].suffix(from: count)
            leaf.runs[index].length = count
            leaf.runs.insert(tail, at: index + 1)
        }
        leaf.runs[index].deleted = true
        leaf.adjust(visible: -count, total: 0)
        // Backspacing over a word leaves one tombstone run, not one per key.
        if index + 1 < leaf.runs.count, leaf.runs[index].isContinued(by: leaf.runs[index + 1]) {
            leaf.runs[index].length += leaf.runs[index + 1].length
            leaf.runs.remove(at: index + 1)
        }
        if index > 0, leaf.runs[index - 1].isContinued(by: leaf.runs[index]) {
            leaf.runs[index - 1].length += leaf.runs[index].length
            leaf.runs.remove(at: index)
        }
        if leaf.runs.count > RunNode.maximumRuns { split(leaf) }
    }

    // MARK: Integrating

    /// Where a remote run goes: the scan of Docs/note-crdt.md, a run at a
    /// time where it can skip, comparing ids before positions so the usual
    /// case (nothing concurrent) costs one lookup.
    func destination(of run: Run, afterOriginLeft known: TextCursor?) -> TextCursor {
        let originLeft = run.originLeft, originRight = run.originRight
        var cursor: TextCursor
        if let left = known ?? self.cursor(at: originLeft) {
            cursor = left
            cursor.advance(by: 1)
        } else {
            cursor = startCursor()
        }
        let newReplica = replicaIDs[Int(run.replica)]
        var leftPosition: Int?
        var rightPosition: Int?
        var destination = cursor
        var scanning = false
        var first = true
        while true {
            if !scanning { destination = cursor }
            if cursor.isAtEnd { break }
            let other = cursor.run
            let offset = cursor.offset
            if !originRight.isNone, other.replica == originRight.replica, other.counter + offset == originRight.counter { break }

            // Where the other character's origin left is, against ours.
            let leftOrder: Int
            if offset > 0 {
                leftOrder = first ? 0 : 1  // its origin left is the character just before it
            } else if other.originLeft == originLeft {
                leftOrder = 0
            } else {
                if leftPosition == nil { leftPosition = rawPosition(of: originLeft, noneMeans: -1) }
                let otherLeft = rawPosition(of: other.originLeft, noneMeans: -1)
                leftOrder = otherLeft < leftPosition! ? -1 : (otherLeft == leftPosition! ? 0 : 1)
            }
            first = false
            if leftOrder < 0 { break }
            if leftOrder > 0 {
                // The rest of this run has origins further right still: skip
                // it whole, but stop at our origin right if it is inside.
                var step = other.length - offset
                if !originRight.isNone, originRight.replica == other.replica,
                   originRight.counter > other.counter + offset, originRight.counter < other.end {
                    step = originRight.counter - (other.counter + offset)
                }
                cursor.advance(by: step)
                continue
            }
            let rightOrder: Int
            if other.originRight == originRight {
                rightOrder = 0
            } else {
                if rightPosition == nil { rightPosition = rawPosition(of: originRight, noneMeans: root.total) }
                let otherRight = rawPosition(of: other.originRight, noneMeans: root.total)
                rightOrder = otherRight < rightPosition! ? -1 : (otherRight == rightPosition! ? 0 : 1)
            }
            if rightOrder < 0 {
                scanning = true
            } else if rightOrder == 0 {
                if newReplica < replicaIDs[Int(other.replica)] { break }
                scanning = false
            } else {
                scanning = false
            }
            cursor.advance(by: 1)
        }
        return destination
    }
}
