import Foundation
@testable import HearthCore
import HearthTestSupport
import Testing

/// An untitled note is listed by its first line with text.
@Suite struct NoteFirstLineTests {
    @Test(arguments: [
        ("Zakupy\nmleko", "Zakupy"),
        ("\n\n   \n  Wizyta u lekarza  \nwtorek", "Wizyta u lekarza"),
        ("\r\n\t \r\nŻółty ser 🧀\r\nchleb", "Żółty ser 🧀"),
        ("   ", ""),
        ("", ""),
        ("jedna linia", "jedna linia"),
    ])
    func theFirstLineWithTextNamesTheNote(text: String, expected: String) {
        expectEqual(Note.firstLine(of: text), expected)
    }

    @Test func aLongFirstLineIsShortenedForTheList() {
        let line = String(repeating: "ą", count: Note.displayTitleLength + 5)
        expectEqual(Note.firstLine(of: "\n" + line + "\nreszta"), String(repeating: "ą", count: Note.displayTitleLength) + "…")
        expectEqual(Note.firstLine(of: String(repeating: "b", count: Note.displayTitleLength)).count, Note.displayTitleLength)
    }
}
