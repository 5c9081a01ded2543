import Foundation
import HearthCore

/// The words of an alert for a phone's notification and for the hub's
/// voice, in the household's language. The web pages say the same things
/// in their own words (Web/i18n); these are the hub's.
public struct AlertWording: Sendable {
    public let language: HouseholdLanguage
    public let timeZone: TimeZone

    public init(language: HouseholdLanguage, timeZone: TimeZone) {
        self.language = language
        self.timeZone = timeZone
    }

    public init(_ household: Household?) {
        self.init(language: household?.language ?? .english,
                  timeZone: household.flatMap { TimeZone(identifier: $0.timeZone) } ?? .current)
    }

    var polish: Bool { language == .polish }

    public func title(_ alert: CareAlert) -> String {
        if alert.isCancelledByItsSenior { return polish ? "SOS odwołane" : "SOS cancelled" }
        return switch alert.kind {
        case .sos: "SOS"
        case .doseDue: polish ? "Pora na lek" : "Medicine due"
        case .doseMissed: polish ? "Nieprzyjęty lek" : "Medicine missed"
        case .lowStock: polish ? "Kończy się lek" : "Running low"
        case .clock: polish ? "Zegar centrali" : "Hub clock"
        }
    }

    public func message(_ alert: CareAlert) -> String {
        let person = text(alert, "personName") ?? (polish ? "Ktoś" : "Someone")
        let medication = text(alert, "medicationName") ?? (polish ? "lek" : "a medicine")
        switch alert.kind {
        case .sos:
            let time = clockTime(alert.raisedAt)
            if alert.isCancelledByItsSenior { return cancelled(person) }
            if let helper = text(alert, "respondedByName"), alert.respondedAt != nil {
                return polish ? "\(person) potrzebuje pomocy (SOS o \(time)). \(helper) jest w drodze."
                              : "\(person) needs help (SOS at \(time)). \(helper) is on the way."
            }
            return polish ? "\(person) potrzebuje pomocy! (SOS o \(time))" : "\(person) needs help! (SOS at \(time))"
        case .doseDue:
            return polish ? "\(person): pora na lek \(medication), \(amount(alert)) (\(dueTime(alert)))"
                          : "\(person): time for \(medication), \(amount(alert)) (\(dueTime(alert)))"
        case .doseMissed:
            return polish ? "Nieprzyjęty lek: \(medication) (\(amount(alert)), \(dueTime(alert))) – \(person)"
                          : "\(person) has not taken \(medication) (\(amount(alert)), \(dueTime(alert)))"
        case .lowStock:
            return polish ? "Kończy się lek \(medication) (\(person))." : "\(medication) for \(person) is running low."
        case .clock:
            return polish ? "Zegar centrali wskazuje złą godzinę. Sprawdź ustawienia czasu."
                          : "The hub’s clock shows the wrong time. Check its time settings."
        }
    }

    /// What the hub says aloud for an alert, or nil for one it keeps quiet
    /// about: a due dose to the senior by name, a missed one, and an SOS's
    /// answer, so a senior who holds no device hears that help is coming,
    /// or its cancelling, so the household hears that all is well.
    public func spoken(_ alert: CareAlert) -> String? {
        let person = text(alert, "personName") ?? ""
        let medication = text(alert, "medicationName") ?? (polish ? "lek" : "your medicine")
        switch alert.kind {
        case .doseDue:
            let amount = spokenAmount(alert).map { ", \($0)" } ?? ""
            return polish ? "\(person), pora na lek \(medication)\(amount)." : "\(person), it is time for \(medication)\(amount)."
        case .doseMissed:
            return polish ? "\(person): lek \(medication) nie został przyjęty." : "\(person) has not taken \(medication)."
        case .sos:
            if alert.isCancelledByItsSenior { return cancelled(person.isEmpty ? (polish ? "Ktoś" : "Someone") : person) }
            if let helper = text(alert, "respondedByName"), alert.respondedAt != nil {
                return polish ? "\(helper) jest w drodze." : "\(helper) is on the way."
            }
            return polish ? "\(person) wzywa pomocy." : "\(person) is calling for help."
        case .lowStock, .clock:
            return nil
        }
    }

    /// An SOS its senior cancelled herself: nobody need come. Worded with
    /// no grammatical gender (Polish verbs would need hers).
    func cancelled(_ person: String) -> String {
        polish ? "\(person): SOS odwołane, wszystko w porządku." : "\(person) cancelled the SOS: all is well."
    }

    /// The text message (SMS) of an alert for a caregiver away from home,
    /// with her reply code ("1 4821": on my way; "2 4821": seen), the only
    /// group of four to six digits in it. An SOS fits one part in both
    /// languages while the name is not long (a Polish text is UCS-2: 70
    /// characters); a longer one goes as a concatenated message.
    public func textMessage(_ alert: CareAlert, code: String) -> TextMessage {
        let person = text(alert, "personName") ?? (polish ? "Ktoś" : "Someone")
        let medication = text(alert, "medicationName") ?? (polish ? "lek" : "a medicine")
        switch alert.kind {
        case .sos:
            let time = clockTime(alert.raisedAt)
            return TextMessage(polish ? "SOS: \(person) wzywa pomocy (\(time)). Odpisz 1 \(code), gdy jedziesz."
                                      : "SOS from home: \(person) needs help (\(time)). Reply 1 \(code) if you are on your way.")
        case .doseMissed:
            return TextMessage(polish ? "Nieprzyjęty lek: \(medication) (\(dueTime(alert))) – \(person). Odpisz 2 \(code), gdy wiesz."
                                      : "\(person) has not taken \(medication) (\(dueTime(alert))). Reply 2 \(code) when you know.")
        case .doseDue, .lowStock, .clock:
            return TextMessage(message(alert))
        }
    }

    /// The text for an emergency contact, outside the household: no code
    /// (she cannot answer for the household), who and since when.
    public func contactTextMessage(_ alert: CareAlert, household: String) -> TextMessage {
        let person = text(alert, "personName") ?? (polish ? "Ktoś" : "Someone")
        let time = clockTime(alert.raisedAt)
        return TextMessage(polish ? "SOS z Hearth (\(household)): \(person) wzywa pomocy od \(time), nikt z domu jeszcze nie odpowiedział."
                                  : "SOS from Hearth (\(household)): \(person) has needed help since \(time) and nobody at home has answered yet.")
    }

    /// A push to a caregiver away from home, through the Internet server.
    /// `kindOnly` (the household's default) tells that server the kind and
    /// whom to call, nothing of medicines; `full` the sentence the phone at
    /// home shows. A Call button rings the senior when her number is kept.
    public func push(_ alert: CareAlert, content: PushSettings.Content, seniorPhone: String?) -> PushNotification {
        let person = text(alert, "personName") ?? (polish ? "Ktoś" : "Someone")
        let kindOnly: String = switch alert.kind {
        case .sos: polish ? "SOS z domu: zadzwoń do: \(person)" : "SOS from home: call \(person)"
        case .doseMissed: polish ? "Nieprzyjęty lek w domu: \(person)" : "A medicine not taken at home: \(person)"
        case .doseDue, .lowStock, .clock: title(alert)
        }
        let call = seniorPhone.map { phone in
            PushNotification.Call(label: polish ? "Zadzwoń: \(person)" : "Call \(person)", url: "tel:" + PhoneNumber.dialled(phone))
        }
        return PushNotification(title: "Hearth: " + title(alert), message: content == .full ? message(alert) : kindOnly,
                                priority: AlertPriority.of(alert), tags: AlertPriority.tags(alert), call: call)
    }

    public var acknowledgeLabel: String { polish ? "Potwierdź" : "Acknowledge" }
    public var onMyWayLabel: String { polish ? "Już jadę" : "I’m on my way" }
    public var testTitle: String { polish ? "Próba powiadomień" : "Alert test" }
    public func testMessage(for name: String) -> String {
        polish ? "\(name), ten telefon dostaje powiadomienia z Hearth." : "\(name), this phone receives Hearth’s alerts."
    }

    func text(_ alert: CareAlert, _ field: String) -> String? {
        guard case .string(let value)? = alert.details.field(field), !value.isEmpty else { return nil }
        return value
    }

    func amount(_ alert: CareAlert) -> String {
        guard case .number(let number)? = alert.details.field("amount") else { return "" }
        return AmountWords.text(number, unit: text(alert, "unit") ?? "", language: language)
    }

    /// The amount in words, as a voice says it ("jedna tabletka", not "1 tabletka").
    func spokenAmount(_ alert: CareAlert) -> String? {
        guard case .number(let number)? = alert.details.field("amount") else { return nil }
        return SpokenAmount.text(number, unit: text(alert, "unit") ?? "", language: language)
    }

    func dueTime(_ alert: CareAlert) -> String {
        text(alert, "plannedTime") ?? clockTime(alert.raisedAt)
    }

    func clockTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}
