import Foundation
import HearthCore

/// "1 tablet", "2 tabletki", "5 tabletek", "½ tabletki": an amount with its
/// unit in English or Polish, for the hub's own words (a phone's message,
/// its voice). Polish nouns take one of three forms after a whole number
/// (CLDR's one, few, many) and another after a fraction. The same table as
/// the web pages' (Web/care/words.js); a unit the caregiver typed
/// otherwise is said as typed.
enum AmountWords {
    struct Forms {
        var one: String, other: String
        var fewPL: String, manyPL: String, onePL: String, fractionPL: String
    }

    /// By the unit id the hub stores (the English plural, "tablets" by default).
    static let units: [String: Forms] = [
        "tablets": Forms(one: "tablet", other: "tablets", fewPL: "tabletki", manyPL: "tabletek", onePL: "tabletka", fractionPL: "tabletki"),
        "capsules": Forms(one: "capsule", other: "capsules", fewPL: "kapsułki", manyPL: "kapsułek", onePL: "kapsułka", fractionPL: "kapsułki"),
        "ml": Forms(one: "ml", other: "ml", fewPL: "ml", manyPL: "ml", onePL: "ml", fractionPL: "ml"),
        "drops": Forms(one: "drop", other: "drops", fewPL: "krople", manyPL: "kropli", onePL: "kropla", fractionPL: "kropli"),
        "puffs": Forms(one: "puff", other: "puffs", fewPL: "wdechy", manyPL: "wdechów", onePL: "wdech", fractionPL: "wdechu"),
        "sachets": Forms(one: "sachet", other: "sachets", fewPL: "saszetki", manyPL: "saszetek", onePL: "saszetka", fractionPL: "saszetki"),
        "patches": Forms(one: "patch", other: "patches", fewPL: "plastry", manyPL: "plastrów", onePL: "plaster", fractionPL: "plastra"),
        "injections": Forms(one: "injection", other: "injections", fewPL: "zastrzyki", manyPL: "zastrzyków", onePL: "zastrzyk",
                            fractionPL: "zastrzyku"),
        "units": Forms(one: "unit", other: "units", fewPL: "jednostki", manyPL: "jednostek", onePL: "jednostka", fractionPL: "jednostki"),
        "teaspoons": Forms(one: "teaspoon", other: "teaspoons", fewPL: "łyżeczki", manyPL: "łyżeczek", onePL: "łyżeczka",
                           fractionPL: "łyżeczki"),
    ]

    static func text(_ amount: Double, unit: String, language: HouseholdLanguage) -> String {
        let number = self.number(amount, language: language)
        guard let id = unitID(unit), let forms = units[id] else {
            return "\(number) \(unit.trimmingCharacters(in: .whitespaces))"
        }
        return "\(number) \(forms.form(for: amount, language: language))"
    }

    /// The unit's id for what is stored ("tablets", "Tablet", "tabletki" →
    /// "tablets"; nothing → "tablets"), or nil for a unit typed otherwise.
    static func unitID(_ unit: String) -> String? {
        let id = unit.trimmingCharacters(in: .whitespaces).lowercased()
        if id.isEmpty { return "tablets" }
        if units[id] != nil { return id }
        return units.first(where: { $0.value.names.contains(id) })?.key
    }

    /// 1 → "1", 0.5 → "½", 1.5 → "1.5" (en) or "1,5" (pl).
    static func number(_ value: Double, language: HouseholdLanguage) -> String {
        switch value {
        case 0.5: return "½"
        case 0.25: return "¼"
        case 0.75: return "¾"
        default:
            let rounded = (value * 100).rounded() / 100
            let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
            return language == .polish ? text.replacingOccurrences(of: ".", with: ",") : text
        }
    }
}

extension AmountWords.Forms {
    var names: [String] { [one, other, fewPL, manyPL, onePL, fractionPL] }

    func form(for amount: Double, language: HouseholdLanguage) -> String {
        let whole = amount == amount.rounded()
        switch language {
        case .english:
            // "½ tablet", "1 tablet", "2 tablets".
            return (amount > 0 && amount <= 1) ? one : other
        case .polish:
            guard whole else { return fractionPL }
            let value = Int(abs(amount))
            if value == 1 { return onePL }
            let (last, lastTwo) = (value % 10, value % 100)
            return (2...4).contains(last) && !(12...14).contains(lastTwo) ? fewPL : manyPL
        }
    }
}
