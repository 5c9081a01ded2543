import Foundation
import GRDB
import HearthCore

extension HearthMirror {
    /// The day's doses now and after every change (a local answer or a sync
    /// landing). With no `date` it follows the household's calendar: at
    /// midnight in the household's time zone it moves on to the new day's
    /// doses by itself, so a tablet left on the Today screen overnight shows
    /// the morning's doses, not yesterday's.
    public func observeToday(on date: LocalDate? = nil) -> AsyncThrowingStream<[TodayDose], any Error> {
        observeToday(on: date, clock: .system)
    }

    /// One reading of Today: which zone and day it was taken for, and the doses.
    struct TodaySnapshot: Equatable, Sendable {
        var zone: String
        var day: LocalDate
        var doses: [TodayDose]
    }

    /// How one day's watch ended.
    private enum DayWatchEnd: Sendable {
        /// The observation stopped: the day or the zone changed under it, or
        /// it was cancelled; it says what it last sent.
        case observed(last: [TodayDose]?)
        /// Midnight came.
        case midnight
    }

    func observeToday(on date: LocalDate?, clock: DeviceClock) -> AsyncThrowingStream<[TodayDose], any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [TodayDose].self)
        let writer = self.writer
        let snapshot: @Sendable (Database) throws -> TodaySnapshot = { db in
            let zone = try Self.timeZone(db)
            let day = date ?? LocalDate(clock.now(), in: zone)
            return TodaySnapshot(zone: zone.identifier, day: day, doses: try Self.today(on: day, db))
        }
        let watch = Task {
            var last: [TodayDose]?
            do {
                // One pass a day: watch the database for that day's doses
                // while waiting for the day to end; then start over.
                while !Task.isCancelled {
                    let start = try await writer.read(snapshot)
                    let previous = last
                    last = try await withThrowingTaskGroup(of: DayWatchEnd.self) { group in
                        group.addTask {
                            var sent = previous
                            do {
                                for try await reading in ValueObservation.tracking(snapshot).removeDuplicates().values(in: writer) {
                                    // A new day or a new household zone: the
                                    // outer loop starts that day's watch.
                                    guard reading.zone == start.zone, reading.day == start.day else { break }
                                    if reading.doses != sent {
                                        continuation.yield(reading.doses)
                                        sent = reading.doses
                                    }
                                }
                            } catch is CancellationError {}
                            return .observed(last: sent)
                        }
                        if date == nil, let midnight = Self.midnight(after: start.day, in: start.zone) {
                            group.addTask {
                                // Cancelled when the observation ended first.
                                do { try await clock.sleepUntil(midnight) } catch is CancellationError {}
                                return .midnight
                            }
                        }
                        var sent = previous
                        if let first = try await group.next() {
                            group.cancelAll()
                            if case .observed(let observed) = first { sent = observed }
                        }
                        for try await end in group {
                            if case .observed(let observed) = end { sent = observed }
                        }
                        return sent
                    }
                    // A fixed date's watch ends only when its observation does.
                    if date != nil { break }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: Task.isCancelled ? nil : error)
            }
        }
        continuation.onTermination = { _ in watch.cancel() }
        return stream
    }

    /// The instant the day after `day` begins in `zone` (its first moment,
    /// also where a clock change skips or repeats local midnight).
    static func midnight(after day: LocalDate, in zone: String) -> Date? {
        guard let timeZone = TimeZone(identifier: zone), let midnight = try? LocalTime(hour: 0, minute: 0) else { return nil }
        return WallClock.instant(day.adding(days: 1), midnight, in: timeZone)
    }
}
