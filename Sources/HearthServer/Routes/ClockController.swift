import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// `/api/v1/clock`: a Raspberry Pi has no real-time clock and, offline, no
/// NTP, so the web UI sends the phone's time. More than two minutes apart
/// raises a "clock looks wrong" alert; an admin (or, once after the hub
/// starts and within 48 h of its last record, a caregiver) can then tap
/// "use this phone's time", which the hub keeps as an offset for its own
/// scheduling (it needs no privilege to set the system clock). Who may,
/// and how far, is `HearthStore.correctClock`'s.
struct ClockController {
    let store: HearthStore

    struct Reading: Decodable {
        var deviceTime: Date
    }

    struct Correction: Decodable {
        var deviceTime: Date
        /// An admin's "yes, that far": more than 48 h from the hub's last record.
        var confirm: Bool?
    }

    func addRoutes(to api: RouterGroup<HearthRequestContext>) {
        let clock = api.group(.clock)
        clock.post { request, context -> JSONValue in
            try context.requirePaired()
            let reading = try await request.decode(as: Reading.self, context: context)
            return Self.json(try await store.compareClock(deviceTime: reading.deviceTime, by: context.caller.origin))
        }
        clock.post("correct") { request, context -> JSONValue in
            let actor = try context.requirePaired()
            let correction = try await request.decode(as: Correction.self, context: context)
            return Self.json(try await store.correctClock(to: correction.deviceTime, by: context.caller.origin,
                                                          corrector: actor, confirmed: correction.confirm ?? false))
        }
    }

    static func json(_ reading: ClockReading) -> JSONValue {
        ["hubTime": .of(reading.hubTime), "deviceTime": .of(reading.deviceTime),
         "differenceSeconds": .number(reading.difference.rounded()), "looksWrong": .bool(reading.looksWrong)]
    }
}
