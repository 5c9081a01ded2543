import Foundation
import HearthCore
import HearthCRDT
import HearthStore

// Storing what a note session applied: one writer, one transaction a round.
extension NoteSession {
    func startWriting() {
        guard !writing else { return }
        writing = true
        Task { await self.writeWaiting() }
    }

    /// Stores everything applied so far in one transaction, then tells
    /// the editors; repeats while more arrived meanwhile.
    private func writeWaiting() async {
        while !unstored.isEmpty, !isClosed {
            let round = unstored
            unstored = []
            let operations = round.flatMap(\.operations)
            // Everything applied is in this round or stored before it.
            let storing = text.versionVector
            let current = text.text
            textBytes = current.utf8.count
            // Lists show an untitled note by its first line: tell them at once
            // when it changes, and of other typing now and then.
            let line = Note.firstLine(of: current)
            let now = ContinuousClock.now
            let tell = line != firstLine || round.contains(where: \.tellNow)
                || lastChangeToldAt.map { now - $0 >= Self.changeInterval } ?? true
            let refreshSearch = round.contains(where: \.tellNow)
                || lastSearchRefreshAt.map { now - $0 >= Self.changeInterval } ?? true
            // The write reads who may edit after at least this note change.
            let readAt = store.hub.lastNoteChange
            do {
                if let last = round.last, !operations.isEmpty {
                    let stored = try await store.storeNoteOperations(
                        noteId: noteId, operations: operations, text: current, recordChange: tell,
                        refreshSearch: refreshSearch, editors: Array(Set(round.map(\.actor))), by: last.origin)
                    lastStoredSeq = stored.seq
                    // Relayed only to those who may read the note as it was
                    // when this typing was stored.
                    update(access: stored.access, readAt: readAt)
                    firstLine = line
                    if tell {
                        lastChangeToldAt = now
                        untold = nil
                    } else {
                        untold = last.origin
                    }
                    if refreshSearch {
                        lastSearchRefreshAt = now
                        searchBehind = false
                    } else {
                        searchBehind = true
                        searchBehindBy = last.origin
                    }
                    if untold != nil || searchBehind { scheduleTrailingTell() }
                }
            } catch let error as HearthError {
                // Someone in this round may no longer edit (or the note is
                // gone): nothing was stored, and memory is ahead of the
                // database. Those who may no longer see the note are told
                // so; the others reconnect to a session read afresh, and
                // send their typing again.
                logger.info("note editing refused", metadata: ["note": "\(noteId)", "error": "\(error)"])
                await recheck()
                closeAll(code: EditorCloseCode.restart, reason: "restart: the note's editing restarted; reconnect")
                break
            } catch {
                logger.error("note editing could not store", metadata: ["note": "\(noteId)", "error": "\(error)"])
                closeAll(code: EditorCloseCode.storage, reason: "hub error: reconnect")
                break
            }
            storedVector = storing
            // What is now stored of the replicas this round touched: the
            // typists hear it at once (their "Saved"), the others soon after
            // (they drop what they heard of it).
            var touched: [UInt64: UInt64] = [:]
            for item in round { for replica in item.acknowledged.next.keys { touched[replica] = storing[replica] } }
            let stored = Outbound.message(.acknowledged(VersionVector(touched)))
            for typist in Set(round.map(\.editor)) { editors[typist]?.continuation.yield(stored) }
            noticeStored(touched)
            for item in round where !item.operations.isEmpty {
                relay(.operations(item.batch), except: item.editor, when: .afterStoring)
            }
            storedSinceCompaction += operations.count
            if storedSinceCompaction >= Self.compactionInterval { await compact() }
        }
        writing = false
    }

    private func scheduleTrailingTell() {
        guard trailingTell == nil else { return }
        trailingTell = Task {
            try? await Task.sleep(for: Self.changeInterval)
            await self.tellUntold()
        }
    }

    /// Tells the log of typing stored untold, and brings search up to the
    /// text (also when the last editor leaves).
    public func tellUntold() async {
        trailingTell?.cancel()
        trailingTell = nil
        let behind = searchBehind
        searchBehind = false
        if behind { lastSearchRefreshAt = .now }
        do {
            if let origin = untold {
                untold = nil
                lastChangeToldAt = .now
                try await store.recordNoteTextChanged(id: noteId, by: origin)
            } else if behind {
                try await store.refreshNoteSearch(id: noteId, by: searchBehindBy)
            }
        } catch {
            logger.warning("note change could not be told", metadata: ["note": "\(noteId)", "error": "\(error)"])
        }
    }

    /// Writes the state as of everything stored, so the next opening reads
    /// one row. Runs between writes, never while an editor waits on one.
    public func compact() async {
        guard storedSinceCompaction > 0, unstored.isEmpty, !isClosed else { return }
        storedSinceCompaction = 0
        do {
            try await store.compactNote(id: noteId, state: text.encodeState(), throughSeq: lastStoredSeq)
        } catch {
            logger.warning("note compaction failed", metadata: ["note": "\(noteId)", "error": "\(error)"])
        }
    }

    /// Tells every web editor, at most once a `storedNoticeInterval`, what
    /// of the typing it heard is stored. One message per keystroke to every
    /// editor of a busy note would cost the relay itself time.
    private func noticeStored(_ touched: [UInt64: UInt64]) {
        unnoticed.merge(touched) { max($0, $1) }
        guard storedNotice == nil else { return }
        storedNotice = Task {
            try? await Task.sleep(for: Self.storedNoticeInterval)
            await self.sendStoredNotice()
        }
    }

    private func sendStoredNotice() {
        storedNotice = nil
        guard !unnoticed.isEmpty, !isClosed else { return }
        relay(.acknowledged(VersionVector(unnoticed)), except: nil, when: .beforeStoring)
        unnoticed = [:]
    }
}
