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
    /// the editors; repeats while more arrived meanwhile. A round appends
    /// its operations only; the note's text goes with a round when lists
    /// must hear at once (a new first line, a device's sync), and once
    /// typing goes quiet. Live listeners hear of typing at most every
    /// `changeInterval` meanwhile.
    private func writeWaiting() async {
        while !unstored.isEmpty, !isClosed {
            // Typing that comes within a second of the last round waits to go with the next.
            if let began = lastRoundBegan, !unstored.contains(where: \.tellNow) {
                let wait = Self.roundInterval - (ContinuousClock.now - began)
                if wait > .zero { try? await Task.sleep(for: wait) }
                if isClosed { break }
            }
            lastRoundBegan = .now
            let round = unstored
            unstored = []
            let applied = round.flatMap(\.applied)
            let operations = Self.rows(of: applied)
            // Everything applied is in this round or stored before it.
            let storing = text.versionVector
            let current = text.text
            textBytes = current.utf8.count
            // Lists show an untitled note by its first line: tell them at once
            // when it changes, and of other typing now and then.
            let line = Note.firstLine(of: current)
            let now = ContinuousClock.now
            let syncing = round.contains(where: \.tellNow)
            let withText = textWanted || line != firstLine || syncing
            let tell = withText || lastChangeToldAt.map { now - $0 >= Self.changeInterval } ?? true
            // The write reads who may edit after at least this note change.
            let readAt = store.hub.lastNoteChange
            do {
                if let last = round.last, !operations.isEmpty {
                    let stored = try await store.storeNoteOperations(
                        noteId: noteId, operations: operations, text: withText ? current : nil, recordChange: tell,
                        refreshSearch: withText && syncing, editors: Array(Set(round.map(\.actor))), by: last.origin)
                    lastStoredSeq = stored.seq
                    lastRoundAt = now
                    // Relayed only to those who may read the note as it was
                    // when this typing was stored.
                    update(access: stored.access, readAt: readAt)
                    firstLine = line
                    if tell { lastChangeToldAt = now }
                    if withText {
                        textWanted = false
                        textBehind = nil
                        if !syncing {
                            searchBehind = true
                            searchBehindBy = last.origin
                        }
                    } else {
                        textBehind = last.origin
                    }
                    if textBehind != nil || searchBehind { waitForQuiet() }
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
            for item in round where !item.applied.isEmpty {
                relay(.operations(item.batch), except: item.editor, when: .afterStoring)
            }
            storedSinceCompaction += applied.count
            if compactionDue() { await compact() }
        }
        writing = false
        // The text was asked for while the last round was being stored.
        if textWanted, !isClosed { await storeTextNow() }
    }

    /// Stores the text once typing has paused for `quietInterval`.
    private func waitForQuiet() {
        guard quietWait == nil else { return }
        quietWait = Task {
            while let left = await self.untilQuiet() {
                guard (try? await Task.sleep(for: left)) != nil else { return }
            }
            await self.quietReached()
        }
    }

    private func untilQuiet() -> Duration? {
        guard let last = lastRoundAt else { return nil }
        let left = Self.quietInterval - (ContinuousClock.now - last)
        return left > .zero ? left : nil
    }

    private func quietReached() async {
        quietWait = nil
        await storeTextNow()
    }

    /// Stores the note's text as of everything stored, tells the change log
    /// of it, and brings search up to it: when typing goes quiet, when the
    /// last editor leaves, and when the hub stops. While the writer stores
    /// a round, the text goes with its next round (or right after it): the
    /// text in memory is then exactly what is stored.
    public func storeTextNow() async {
        quietWait?.cancel()
        quietWait = nil
        guard !isClosed else { return }
        if writing {
            textWanted = true
            return
        }
        textWanted = false
        do {
            if let origin = textBehind {
                textBehind = nil
                searchBehind = false
                lastChangeToldAt = .now
                do {
                    try await store.storeNoteText(id: noteId, text: text.text, throughSeq: lastStoredSeq, by: origin)
                } catch {
                    textBehind = textBehind ?? origin
                    throw error
                }
            } else if searchBehind {
                searchBehind = false
                try await store.refreshNoteSearch(id: noteId, by: searchBehindBy)
            }
        } catch {
            logger.warning("note text could not be stored", metadata: ["note": "\(noteId)", "error": "\(error)"])
        }
    }

    /// Writes the state as of everything stored, so the next opening reads
    /// one row and few operations, once enough were stored since the last
    /// time (`compactionDue`; also when the last editor leaves or the hub
    /// stops, if due: a few hundred operations replay quickly). Runs
    /// between writes, never while an editor waits on one.
    public func compact() async {
        guard compactionDue(), unstored.isEmpty, !isClosed else { return }
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
