import HearthTestSupport
import Testing
@testable import HearthCRDT

@Suite struct NoteTextTests {
    @Test func typingAndDeletingLocally() throws {
        let note = NoteText(replica: 1)
        try note.insert("hello", at: 0)
        try note.insert(" world", at: 5)
        try note.delete(at: 0, length: 1)
        try note.insert("H", at: 0)
        expectEqual(note.text, "Hello world")
        expectEqual(note.count, 11)
    }
}
