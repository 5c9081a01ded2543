#if canImport(Glibc)
import Glibc
#endif

/// How the hub's allocations are kept in memory. glibc gives a thread that
/// finds the usual arena busy one of its own, up to eight for each core,
/// and each keeps what it once held: after a burst of requests over the
/// event loops, the database's threads and Swift's, the hub sat on freed
/// memory nobody would use again (3.5 MB after the care benchmark's load).
/// Two arenas are plenty for a household's few requests a second (the
/// care benchmark still records thousands of doses a second). Called once,
/// as the hub starts, before its services start their threads.
enum MemoryArenas {
    static let most: Int32 = 2
    /// malloc.h's M_ARENA_MAX, which Swift's Glibc module does not bring in.
    static let arenaMaxParameter: Int32 = -8

    static func limit() {
        #if canImport(Glibc)
        // mallopt is looked up rather than declared: malloc.h is not part of
        // the Glibc module. RTLD_DEFAULT is a null handle in glibc.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMaxParameter, most)
        #endif
    }
}
