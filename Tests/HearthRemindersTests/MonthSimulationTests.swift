import Foundation
import HearthCore
import HearthStore
import HearthTestSupport
import Testing

/// Thirty days of three seniors on random schedules of every kind, with
/// random answers, restarts at random moments (some between a dose's due
/// time and the end of its grace) and the clock jumping forward and back.
/// Afterwards every dose was raised and escalated exactly as the rules say.
/// The escalation ladder climbs beside it (its channel taking every text at
/// once): SOS calls at random moments, answered soon, late or never, and
/// every SOS and unanswered missed dose is texted exactly once per rung,
/// nothing after an answer.
@Suite struct MonthSimulationTests {
    /// What the simulated senior does about one planned dose.
    enum Behaviour: CaseIterable {
        case takeEarly, take, skip, snoozeThenTake, ignore
    }

    struct Action {
        var at: Date
        var key: String
        var person: UUID
        var answer: DoseAnswer
    }

    /// An SOS of the month: when she calls, and how long until a caregiver answers (nil: never).
    struct Call {
        var at: Date
        var senior: UUID
        var answeredAfter: TimeInterval?
    }

    @Test func aMonthOfRemindersRaisesAndEscalatesEveryDoseExactlyOnce() async throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["HEARTH_SIMULATION_SEED"] ?? "") ?? 20_261_122
        print("month simulation seed \(seed) (set HEARTH_SIMULATION_SEED to repeat another)")
        var random = SeededRandom(seed: seed)
        // March 2026, so Europe/Warsaw's spring-forward night is inside.
        let start = try CareHome.instant("2026-03-10", "00:00")
        let end = start.addingTimeInterval(30 * 86_400)
        let home = try await CareHome(start: start)
        var seniors = [home.senior]
        for name in ["Dziadek", "Ciocia"] {
            let senior = try await home.store.addPerson(name: name, role: .senior, as: .hubTerminal, by: "test")
            try await home.store.link(caregiver: home.caregiver.id, senior: senior.id, as: .hubTerminal, by: "test")
            seniors.append(senior)
        }
        for senior in seniors {
            for (index, pattern) in try Self.randomPatterns(&random).enumerated() {
                try await home.medication("Lek \(index)", pattern, for: senior)
            }
        }
        let grace: TimeInterval = 30 * 60
        // Ola chose texts and keeps a number; a neighbour is the emergency contact.
        _ = try await home.store.updatePerson(id: home.caregiver.id, PersonChange(phone: .some("+48 600 100 200")), as: .hubTerminal, by: "test")
        _ = try await home.store.setAwayChoice(of: home.caregiver.id, AwayChoice(sms: true), as: .hubTerminal, by: "test")
        _ = try await home.store.setEmergencyContacts([EmergencyContact(id: UUID.random(), name: "Sąsiadka", phone: "+48 600 100 900")],
                                                      as: .hubTerminal, by: "test")
        // From a stream of their own, so the doses, restarts and jumps of a seed are what they were before calls were added.
        var callRandom = SeededRandom(seed: seed &+ 1)
        var calls: [Call] = (0..<24).map { _ in
            Call(at: start.addingTimeInterval(Double(Int.random(in: 0..<(30 * 1440), using: &callRandom) * 60)),
                 senior: seniors.randomElement(using: &callRandom)!.id,
                 answeredAfter: [nil, 120, 480, 1200].randomElement(using: &callRandom)!)
        }
        calls.sort { $0.at < $1.at }
        var answers: [(at: Date, alert: UUID)] = []
        var answered: Set<UUID> = []
        var sentAfterAnswer: [UUID] = []

        // Every planned dose of the month, and what its senior will do.
        var behaviours: [String: Behaviour] = [:]
        var planned: [String: DueDose] = [:]
        var actions: [Action] = []
        for senior in seniors {
            var date = LocalDate(start, in: home.zone)
            while date <= LocalDate(end, in: home.zone) {
                for item in try await home.store.dayPlan(personId: senior.id, date: date).planned where item.planned.due < end {
                    let dose = item.planned
                    let behaviour = Behaviour.allCases.randomElement(using: &random)!
                    planned[dose.key] = dose
                    behaviours[dose.key] = behaviour
                    let after = TimeInterval(Int.random(in: 1...25, using: &random) * 60)
                    switch behaviour {
                    case .takeEarly: actions.append(Action(at: dose.due.addingTimeInterval(-300), key: dose.key, person: senior.id, answer: .taken(at: nil)))
                    case .take: actions.append(Action(at: dose.due + after, key: dose.key, person: senior.id, answer: .taken(at: nil)))
                    case .skip: actions.append(Action(at: dose.due + after, key: dose.key, person: senior.id, answer: .skipped(reason: "nudności")))
                    case .snoozeThenTake:
                        actions.append(Action(at: dose.due + after, key: dose.key, person: senior.id, answer: .snoozed(minutes: 10)))
                        actions.append(Action(at: dose.due + after + 600 + TimeInterval(Int.random(in: 1...15, using: &random) * 60),
                                              key: dose.key, person: senior.id, answer: .taken(at: nil)))
                    case .ignore: break
                    }
                }
                date = date.adding(days: 1)
            }
        }
        actions.sort { $0.at < $1.at }
        #expect(planned.count > 300)

        // Restarts: some at random, and some between a dose's due time and its grace's end.
        var restarts: [(at: Date, downFor: TimeInterval)] = (0..<12).map { _ in
            (start.addingTimeInterval(Double.random(in: 0..<(30 * 86_400), using: &random)), Double(Int.random(in: 0...180, using: &random) * 60))
        }
        for key in planned.keys.sorted().shuffled(using: &random).prefix(12) {
            restarts.append((planned[key]!.due.addingTimeInterval(Double(Int.random(in: 1...29, using: &random) * 60)),
                             Double(Int.random(in: 0...20, using: &random) * 60)))
        }
        restarts.sort { $0.at < $1.at }
        // Clock jumps of up to two hours either way.
        var jumps: [(at: Date, by: TimeInterval)] = (0..<10).map { _ in
            (start.addingTimeInterval(Double.random(in: 0..<(30 * 86_400), using: &random)),
             Double(Int.random(in: 5...120, using: &random) * 60) * (Bool.random(using: &random) ? 1 : -1))
        }
        jumps.sort { $0.at < $1.at }

        // What actually happened, in hub time, to judge against afterwards.
        var unseen: [ClosedRange<Date>] = []     // outages and stretches a forward jump skipped
        var answeredAt: [String: Date] = [:]     // the final taken/skipped answer's recording time
        var snoozeEnds: [String: Date] = [:]
        var passes = 0
        var backwardJumps: [TimeInterval] = []
        var now = start
        while now < end {
            let pass = try await home.store.remind(at: now, as: .reminderService)
            passes += 1
            var next = min(pass.nextCheck ?? end, end)
            // The ladder, its channel taking each text at once.
            let ladder = try await home.store.climbLadders(at: now, channels: [.sms, .contact], settings: EscalationSettings(),
                                                           quietHours: nil, monthlyLimit: 100_000)
            for (message, alert) in ladder.due {
                if answered.contains(alert.id) { sentAfterAnswer.append(alert.id) }
                try await home.store.awayMessageSent(message.id, at: now)
            }
            if let check = ladder.nextCheck { next = min(next, max(check, now)) }
            if let call = calls.first { next = min(next, max(call.at, now)) }
            if let answer = answers.first { next = min(next, max(answer.at, now)) }
            if let action = actions.first { next = min(next, max(action.at, now)) }
            if let restart = restarts.first { next = min(next, max(restart.at, now)) }
            if let jump = jumps.first { next = min(next, max(jump.at, now)) }
            now = max(next, now)
            home.time.set(now)
            if let restart = restarts.first, restart.at <= now {
                restarts.removeFirst()
                // Down from `now`; the time moves on while it is.
                let up = now.addingTimeInterval(restart.downFor)
                if restart.downFor > 0 { unseen.append(now.addingTimeInterval(0.001)...up) }
                now = up
                home.time.set(now)
                try home.restart()
                continue  // the hub's first pass comes before anyone can answer
            }
            if let jump = jumps.first, jump.at <= now {
                jumps.removeFirst()
                let to = now.addingTimeInterval(jump.by)
                if jump.by < 0 { backwardJumps.append(-jump.by) }
                if jump.by > 0 { unseen.append(now.addingTimeInterval(0.001)...to) }
                now = to
                home.time.set(now)
                continue
            }
            while let call = calls.first, call.at <= now {
                calls.removeFirst()
                let sos = try await home.store.raiseSOS(for: call.senior, as: PermissionPolicy.Actor(personId: call.senior, role: .senior), by: "test")
                if let after = call.answeredAfter { answers.append((now.addingTimeInterval(after), sos.id)) }
                answers.sort { $0.at < $1.at }
            }
            while let answer = answers.first, answer.at <= now {
                answers.removeFirst()
                let ola = try #require(try await home.store.actor(of: home.caregiver.id))
                _ = try await home.store.respondToAlert(id: answer.alert, as: ola, by: "test")
                answered.insert(answer.alert)
            }
            while let action = actions.first, action.at <= now {
                actions.removeFirst()
                let dose: Dose
                let recorded: Bool
                do {
                    (dose, recorded) = try await home.store.answerDose(key: action.key, action.answer, as: PermissionPolicy.Actor(personId: action.person, role: .senior), by: "test")
                } catch HearthError.conflict {
                    // A snooze that came after the dose was already missed (the hub was down, or the clock jumped).
                    continue
                }
                if recorded, dose.status.isAnswered { answeredAt[action.key] = now }
                if recorded, dose.status == .snoozed { snoozeEnds[action.key] = dose.snoozedUntil }
            }
        }

        // Judge every dose.
        let alerts = try await home.store.alerts(about: Set(seniors.map(\.id)), includeHubAlerts: true, openOnly: false, limit: 1_000_000)
        let doses = try await home.store.doses(of: Set(seniors.map(\.id)), from: start.addingTimeInterval(-86_400), to: end.addingTimeInterval(86_400))
        let keyOfDose = Dictionary(uniqueKeysWithValues: doses.compactMap { dose in dose.key.map { (dose.id, $0) } })
        var due: [String: [CareAlert]] = [:]
        var missed: [String: [CareAlert]] = [:]
        for alert in alerts where alert.kind == .doseDue || alert.kind == .doseMissed {
            let key = try #require(alert.doseId.flatMap { keyOfDose[$0] })
            if alert.kind == .doseDue { due[key, default: []].append(alert) }
            if alert.kind == .doseMissed { missed[key, default: []].append(alert) }
        }
        func seen(_ instant: Date) -> Bool { !unseen.contains { $0.contains(instant) } }
        var checked = (raisedOnTime: 0, escalatedOnTime: 0, answeredEarly: 0)
        for (key, dose) in planned where dose.due.addingTimeInterval(grace + 3600) < end {
            let raised = due[key] ?? []
            let escalated = missed[key] ?? []
            #expect(raised.count <= 1 && escalated.count <= 1, "\(key) raised \(raised.count), escalated \(escalated.count) times")
            let answer = answeredAt[key]
            if let answer, answer < dose.due {
                #expect(raised.isEmpty && escalated.isEmpty, "\(key) was answered before it was due")
                checked.answeredEarly += 1
                continue
            }
            if seen(dose.due) {
                expectEqual(raised.count, 1, "\(key) due at \(dose.due) was not raised")
                if let alert = raised.first {
                    #expect(abs(alert.raisedAt.timeIntervalSince(dose.due)) <= 1, "\(key) raised at \(alert.raisedAt), due \(dose.due)")
                    checked.raisedOnTime += 1
                }
            }
            let deadline = max(snoozeEnds[key] ?? dose.due, dose.due).addingTimeInterval(grace)
            if let answer, answer < deadline {
                #expect(escalated.isEmpty, "\(key) was answered in time at \(answer) but escalated")
            } else {
                expectEqual(escalated.count, 1, "\(key) was never answered in time but not escalated")
                if let alert = escalated.first {
                    #expect(alert.raisedAt >= deadline, "\(key) escalated at \(alert.raisedAt) before its grace ended at \(deadline)")
                    if seen(deadline) {
                        #expect(abs(alert.raisedAt.timeIntervalSince(deadline)) <= 1, "\(key) escalated at \(alert.raisedAt), grace ended \(deadline)")
                        checked.escalatedOnTime += 1
                    }
                }
            }
        }
        // The ladder: nothing after an answer; every SOS texted to Ola once, at
        // once, and to the neighbour once exactly when nobody answered in ten
        // minutes; every missed dose still open fifteen minutes on, texted once.
        #expect(sentAfterAnswer.isEmpty, "texted after an answer: \(sentAfterAnswer)")
        var texted = (sos: 0, contacts: 0, missed: 0)
        for alert in alerts where alert.kind == .sos || alert.kind == .doseMissed {
            let messages = try await home.store.awayMessages(ofAlert: alert.id)
            let toOla = messages.filter { $0.channel == .sms }
            let toNeighbour = messages.filter { $0.channel == .contact }
            let answer = [alert.respondedAt, alert.acknowledgedAt, alert.resolvedAt].compactMap { $0 }.min()
            #expect(toOla.count <= 1 && toNeighbour.count <= 1)
            #expect(messages.allSatisfy { $0.state == .sent },
                    "\(alert.kind) \(alert.id): \(messages.map { "\($0.state) \($0.problem ?? "") queued \($0.queuedAt)" }) raised \(alert.raisedAt) answered \(String(describing: answer))")
            switch alert.kind {
            case .sos:
                #expect(toOla.count == 1 && toOla.first?.sentAt == alert.raisedAt, "SOS \(alert.id) texted \(toOla.map(\.sentAt))")
                let tenMinutes = alert.raisedAt.addingTimeInterval(600)
                if let answer, answer < tenMinutes {
                    #expect(toNeighbour.isEmpty, "SOS answered at \(answer) but the neighbour was texted")
                } else if seen(tenMinutes) {
                    #expect(toNeighbour.count == 1 && toNeighbour.first?.sentAt == tenMinutes, "SOS \(alert.id): \(toNeighbour.map(\.sentAt))")
                }
                texted.sos += toOla.count
                texted.contacts += toNeighbour.count
            default:
                #expect(toNeighbour.isEmpty, "a dose never reaches a contact")
                let fifteen = alert.raisedAt.addingTimeInterval(15 * 60)
                if let answer, answer < fifteen {
                    #expect(toOla.isEmpty, "missed dose answered at \(answer) but texted")
                } else if seen(fifteen), answer.map({ $0 > fifteen }) ?? true {
                    #expect(toOla.count == 1 && toOla.first?.sentAt == fifteen, "missed \(alert.id): \(toOla.map(\.sentAt))")
                }
                texted.missed += toOla.count
            }
        }
        #expect(texted.sos >= 20 && texted.contacts > 0 && texted.missed > 10, "\(texted)")
        print("month simulation, away from home: \(texted.sos) SOS texts, \(texted.contacts) to the neighbour, \(texted.missed) missed doses")

        // Each jump back of more than two minutes was noticed (one open alert at a time).
        #expect(alerts.contains { $0.kind == .clock } == backwardJumps.contains { $0 > HearthStore.clockTolerance })
        print("month simulation: \(planned.count) doses, \(passes) passes, \(alerts.count) alerts;",
              "checked \(checked.raisedOnTime) raised on time, \(checked.escalatedOnTime) escalated on time, \(checked.answeredEarly) answered early")
        #expect(checked.raisedOnTime > 200 && checked.escalatedOnTime > 30)
    }

    /// Two to four schedules of random kinds for one senior.
    static func randomPatterns(_ random: inout SeededRandom) throws -> [DoseSchedule.Pattern] {
        func times(_ count: Int) throws -> [LocalTime] {
            Array(Set(try (0..<count).map { _ in try LocalTime(hour: Int.random(in: 6...22, using: &random), minute: [0, 15, 30, 45].randomElement(using: &random)!) }))
        }
        var patterns: [DoseSchedule.Pattern] = [
            .weekly(times: try times(Int.random(in: 1...3, using: &random)), weekdays: Set((1...7).filter { _ in Int.random(in: 0..<4, using: &random) > 0 } + [3])),
            .everyNDays(interval: Int.random(in: 2...3, using: &random), times: try times(1)),
            .cyclic(daysOn: Int.random(in: 3...5, using: &random), daysOff: Int.random(in: 1...3, using: &random), times: try times(2)),
            .everyNHours(interval: Int.random(in: 4...6, using: &random), from: try LocalTime(hour: 8, minute: 0), until: try LocalTime(hour: 20, minute: 0)),
            .asNeeded(minimumIntervalMinutes: 240, dailyMaximum: 3),
        ]
        patterns.shuffle(using: &random)
        return Array(patterns.prefix(Int.random(in: 2...4, using: &random))) + [.weekly(times: [try LocalTime("02:30")], weekdays: [7])]
    }
}
