import HearthCore

/// A dose's amount as the hub's voice says it, in words: "one tablet",
/// "half a tablet", "one and a half tablets", "ten millilitres"; "jedna
/// tabletka", "dwie tabletki", "pół tabletki", "półtorej tabletki",
/// "półtora plastra". A voice reading "1 tabletka" does not make the
/// number agree with the noun (Polish says jedna tabletka but jeden
/// plaster), so the number is given as a word that does.
///
/// The same rules as the pages' Listen (`Web/care/spoken.js`'s
/// `spokenAmount`); both read `Tests/vectors/words/spoken.json`. An amount
/// not in quarters, over 999 or in a unit typed otherwise is said as it is
/// written (`AmountWords`).
enum SpokenAmount {
    /// Polish nouns that are feminine ("jedna tabletka", "dwie krople"); the rest are masculine.
    static let feminineInPolish: Set<String> = ["tablets", "capsules", "drops", "sachets", "units", "teaspoons"]

    /// "ml" is written short but said in full.
    static let saidInFull: [String: AmountWords.Forms] = [
        "ml": AmountWords.Forms(one: "millilitre", other: "millilitres", fewPL: "mililitry", manyPL: "mililitrów",
                                onePL: "mililitr", fractionPL: "mililitra"),
    ]

    static func text(_ amount: Double, unit: String, language: HouseholdLanguage) -> String {
        let whole = amount.rounded(.down)
        let part = amount - whole
        guard amount.isFinite, amount > 0, whole <= 999, let id = AmountWords.unitID(unit),
              let forms = saidInFull[id] ?? AmountWords.units[id],
              part == 0 || partWords(part, language: language) != nil else {
            return AmountWords.text(amount, unit: unit, language: language)
        }
        let feminine = language == .polish && feminineInPolish.contains(id)
        let number = words(Int(whole), language: language, feminine: feminine)
        guard let partWords = partWords(part, language: language) else {
            return "\(number) \(forms.form(for: whole, language: language))"
        }
        switch language {
        case .english:
            if whole > 0 { return "\(number) and \(partWords) \(forms.other)" }
            // "half a tablet", "a quarter of an injection"
            let article = forms.one.first.map { "aeioAEIO".contains($0) } == true ? "an" : "a"
            return part == 0.5 ? "half \(article) \(forms.one)" : "\(partWords) of \(article) \(forms.one)"
        case .polish:
            // A fraction takes the noun's genitive singular.
            if whole == 0 { return "\(partWords) \(forms.fractionPL)" }
            if whole == 1 && part == 0.5 { return "\(feminine ? "półtorej" : "półtora") \(forms.fractionPL)" }
            return "\(number) i \(partWords) \(forms.fractionPL)"
        }
    }

    /// What a quarter, a half and three quarters are called; nil for any other part.
    static func partWords(_ part: Double, language: HouseholdLanguage) -> String? {
        switch (part, language) {
        case (0.25, .english): "a quarter"
        case (0.5, .english): "a half"
        case (0.75, .english): "three quarters"
        case (0.25, .polish): "ćwierć"
        case (0.5, .polish): "pół"
        case (0.75, .polish): "trzy czwarte"
        default: nil
        }
    }

    static let onesEnglish = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                              "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
    static let tensEnglish = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    static let onesPolish = ["zero", "jeden", "dwa", "trzy", "cztery", "pięć", "sześć", "siedem", "osiem", "dziewięć", "dziesięć",
                             "jedenaście", "dwanaście", "trzynaście", "czternaście", "piętnaście", "szesnaście", "siedemnaście",
                             "osiemnaście", "dziewiętnaście"]
    static let tensPolish = ["", "", "dwadzieścia", "trzydzieści", "czterdzieści", "pięćdziesiąt", "sześćdziesiąt",
                             "siedemdziesiąt", "osiemdziesiąt", "dziewięćdziesiąt"]
    static let hundredsPolish = ["", "sto", "dwieście", "trzysta", "czterysta", "pięćset", "sześćset", "siedemset", "osiemset",
                                 "dziewięćset"]

    /// 0…999 in words: 21 → "twenty-one", 105 → "one hundred and five"; in
    /// Polish agreeing with a feminine noun when `feminine` ("jedna",
    /// "dwie", "dwadzieścia dwie"; a compound keeps "jeden").
    static func words(_ n: Int, language: HouseholdLanguage, feminine: Bool = false) -> String {
        let (hundreds, rest) = (n / 100, n % 100)
        var words: [String] = []
        switch language {
        case .english:
            if hundreds > 0 { words.append("\(onesEnglish[hundreds]) hundred") }
            if rest > 0 || n == 0 {
                let small = rest < 20 ? onesEnglish[rest]
                    : [tensEnglish[rest / 10], rest % 10 > 0 ? onesEnglish[rest % 10] : ""].filter { !$0.isEmpty }.joined(separator: "-")
                words.append(hundreds > 0 ? "and \(small)" : small)
            }
        case .polish:
            if hundreds > 0 { words.append(hundredsPolish[hundreds]) }
            if rest >= 20 { words.append(tensPolish[rest / 10]) }
            let last = rest < 20 ? rest : rest % 10
            if last > 0 || n == 0 { words.append(onesPolish[last]) }
            if feminine && n == 1 { words[words.count - 1] = "jedna" } else if feminine && last == 2 { words[words.count - 1] = "dwie" }
        }
        return words.joined(separator: " ")
    }
}
