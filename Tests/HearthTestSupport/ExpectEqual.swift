import Testing

/// `#expect(actual == expected)` as a function: a failure still names both
/// values (`(actual → 3) == (expected → 4)`), the comment and the caller's
/// line. Why not the macro itself: the compiler spends 20–30 ms on each
/// `#expect(a == b)`'s expansion (resolving its overloads, then generating
/// its closures) against about 2 ms on this call, and the tests held some
/// 1,400 of them. Compiling the test targets took 318 core-seconds with
/// them and 204 with this (30 November, one after the other).
public func expectEqual<Value: Equatable>(
    _ actual: Value, _ expected: Value, _ comment: @autoclosure () -> Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual == expected, comment(), sourceLocation: sourceLocation)
}
