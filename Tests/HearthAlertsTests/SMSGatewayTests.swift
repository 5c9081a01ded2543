import Foundation
@testable import HearthAlerts
import HearthTestSupport
import Testing

/// Texts handed to the real gammu-smsd, running on gammu's dummy phone (a
/// folder instead of a modem, as gammu's own tests run the daemon): what the
/// hub queues is what the daemon sends, one part or concatenated, in GSM or
/// UCS-2. `make test` installs gammu-smsd.
@Suite(.serialized) struct SMSGatewayTests {
    @Test func aTextQueuedForTheDaemonIsSentToTheNumberWordForWord() async throws {
        let modem = try DummyModem()
        defer { modem.stop() }
        let gateway = SMSGateway(configPath: modem.config.path)
        let english = TextMessage("SOS from home: Babcia Zosia needs help (14:19). Reply 1 4821 if you are on your way.")
        let id = try await gateway.send(english, to: "+48600100200")
        #expect(!id.isEmpty)
        let sent = try await modem.sent(count: 1)
        expectEqual(sent, [DummyModem.Sent(number: "+48600100200", text: english.text)])
    }

    @Test func aPolishTextGoesAsUCS2AndALongOneConcatenatedNothingCut() async throws {
        let modem = try DummyModem()
        defer { modem.stop() }
        let gateway = SMSGateway(configPath: modem.config.path)
        let short = TextMessage("SOS: Babcia Żaneta wzywa pomocy (14:19). Odpisz 1 4821, gdy jedziesz.")
        #expect(short.coding == .ucs2 && short.parts == 1)
        _ = try await gateway.send(short, to: "+48600100300")
        let long = TextMessage("SOS: Prababcia Zofia Łęcka-Wiśniewska wzywa pomocy (14:19). Odpisz 1 4821, gdy jedziesz.")
        expectEqual(long.parts, 2)
        _ = try await gateway.send(long, to: "+48600100300")
        let sent = try await modem.sent(count: 2)
        expectEqual(Set(sent.map(\.text)), [short.text, long.text])
    }

    @Test func aNumberNoModemCanDialIsRefusedBeforeTheDaemonIsAsked() async throws {
        let gateway = SMSGateway(configPath: "/nonexistent/gammu-smsdrc")
        await #expect(throws: SMSProblem.self) { _ = try await gateway.send(TextMessage("x"), to: "-c /etc/passwd") }
        expectEqual(SMSGateway.dialable("+48 600-100 (200)"), "+48600100200")
        #expect(SMSGateway.dialable("call me") == nil)
    }

    @Test func aDaemonThatIsNotSetUpIsAProblemToReportNotACrash() async throws {
        let gateway = SMSGateway(configPath: "/nonexistent/gammu-smsdrc")
        await #expect(throws: SMSProblem.self) { _ = try await gateway.send(TextMessage("x"), to: "+48600100200") }
    }
}

/// The modem as gammu-smsd reports it, for health.
@Suite(.serialized) struct ModemMonitorTests {
    @Test func theRunningDaemonsSignalAndCountsAreReadAndNoIdentifierIsKept() async throws {
        let modem = try DummyModem()
        defer { modem.stop() }
        // The daemon writes its status once a second (statusfrequency = 1),
        // the signal once it has the phone: gammu's dummy phone reports 42 %.
        var reading: ModemReading?
        for _ in 0..<40 where reading?.signalPercent != 42 {
            reading = try? await ModemMonitor.read(configPath: modem.config.path)
            if reading?.signalPercent != 42 { try await Task.sleep(for: .milliseconds(250)) }
        }
        expectEqual(reading?.signalPercent, 42, "\(String(describing: reading))")
        #expect(reading?.sent != nil && reading?.received != nil && reading?.failed != nil)
        let parsed = ModemReading(monitorOutput: "IMEI: 999999999999999\nIMSI: 994299429942994\nNetworkSignal: 142\nSent: 3\n")
        #expect(parsed?.signalPercent == 100 && parsed?.sent == 3)
        #expect(ModemReading(monitorOutput: "IMEI: 999999999999999\n") == nil, "an identifier alone is no reading")
    }

    @Test func noDaemonIsAProblemToReportNotACrash() async throws {
        let directory = try TemporaryDirectory()
        await #expect(throws: SMSProblem.self) {
            _ = try await ModemMonitor.read(configPath: directory.url.appendingPathComponent("no-smsdrc").path)
        }
    }
}
