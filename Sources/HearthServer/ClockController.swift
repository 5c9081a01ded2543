import Foundation
import HearthCore
import HearthStore
import Hummingbird

/// `/api/v1/clock`: a Raspberry Pi has no real-time clock and, offline, no
/// NTP, so the web UI sends the phone's time. More than two minutes apart
/// raises a "clock looks wrong" alert; a caregiver or admin can then tap
/// "use this phone's time", which the hub keeps as an offset for its own
/// scheduling (it needs no privilege to set the system clock).
struct ClockController {
    let store: HearthStore

    struct Reading: Decodable {
        var deviceTime: Date
    }

    func addRoutes(to router: Router<HearthRequestContext>) {
        router.post("/api/v1/clock") { request, context -> JSONValue in
            try context.requirePaired()
            let reading = try await request.decode(as: Reading.self, context: context)
            return Self.json(try await store.compareClock(deviceTime: reading.deviceTime, by: context.caller.actorName))
        }
        router.post("/api/v1/clock/correct") { request, context -> JSONValue in
            let actor = try context.requirePaired()
            guard actor.role != .senior else {
                throw ProblemError(.forbidden, type: "forbidden", detail: "Only a caregiver or an admin can set the hub's time")
            }
            let reading = try await request.decode(as: Reading.self, context: context)
            return Self.json(try await store.correctClock(to: reading.deviceTime, by: context.caller.actorName))
        }
    }

    static func json(_ reading: ClockReading) -> JSONValue {
        ["hubTime": .of(reading.hubTime), "deviceTime": .of(reading.deviceTime),
         "differenceSeconds": .number(reading.difference.rounded()), "looksWrong": .bool(reading.looksWrong)]
    }
}
