import Foundation
@testable import HearthAlerts
import Testing

/// libcurl is opened when the first push goes, not linked into the hub.
struct CurlLibraryTests {
    @Test func theInstalledLibraryOpensWithEveryFunctionThePushNeeds() {
        #expect(CurlLibrary.shared != nil, "libcurl4 is installed here (make test installs libcurl4-openssl-dev)")
    }

    @Test func aMissingLibraryIsAPlainProblemNotACrash() {
        #expect(CurlLibrary(file: "libcurl-that-is-not-here.so.4") == nil)
        #expect(CurlLibrary.missing.contains("libcurl4"))
    }
}
