import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// libcurl, opened the first time a push is sent rather than linked into
/// the hub: with the TLS, Kerberos, LDAP and SSH libraries it brings, it was
/// 5.5 MB of every running hub's memory, and most households send no push
/// to the Internet (Sources/CCurl/shim.h). The package still depends on
/// libcurl4, so it is there when a household turns push on.
struct CurlLibrary: @unchecked Sendable {
    typealias GlobalInit = @convention(c) (Int) -> CURLcode
    typealias EasyInit = @convention(c) () -> UnsafeMutableRawPointer?
    typealias EasyPerform = @convention(c) (UnsafeMutableRawPointer?) -> CURLcode
    typealias EasyCleanup = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias EasyStrerror = @convention(c) (CURLcode) -> UnsafePointer<CChar>
    typealias SlistAppend = @convention(c) (UnsafeMutablePointer<curl_slist>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<curl_slist>?
    typealias SlistFreeAll = @convention(c) (UnsafeMutablePointer<curl_slist>?) -> Void

    /// The library's file as Debian's libcurl4 installs it (its soname).
    static let file = "libcurl.so.4"
    static let missing = "libcurl4 is not installed, so no push can be sent (apt-get install libcurl4)"

    let easyInit: EasyInit
    let easyPerform: EasyPerform
    let easyCleanup: EasyCleanup
    let easyStrerror: EasyStrerror
    let slistAppend: SlistAppend
    let slistFreeAll: SlistFreeAll
    /// curl_easy_setopt and curl_easy_getinfo, called through shim.h's typed wrappers.
    let setopt: UnsafeMutableRawPointer
    let getinfo: UnsafeMutableRawPointer

    /// Opened and set up (curl_global_init) once, on first use, before any
    /// thread uses it; nil when the library cannot be opened.
    static let shared: CurlLibrary? = {
        guard let library = CurlLibrary(file: file) else { return nil }
        return library.globalInit(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK ? library : nil
    }()

    private let globalInit: GlobalInit

    init?(file: String) {
        guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL) else { return nil }
        func function<F>(_ name: String, as type: F.Type) -> F? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let globalInit = function("curl_global_init", as: GlobalInit.self),
              let easyInit = function("curl_easy_init", as: EasyInit.self),
              let easyPerform = function("curl_easy_perform", as: EasyPerform.self),
              let easyCleanup = function("curl_easy_cleanup", as: EasyCleanup.self),
              let easyStrerror = function("curl_easy_strerror", as: EasyStrerror.self),
              let slistAppend = function("curl_slist_append", as: SlistAppend.self),
              let slistFreeAll = function("curl_slist_free_all", as: SlistFreeAll.self),
              let setopt = dlsym(handle, "curl_easy_setopt"),
              let getinfo = dlsym(handle, "curl_easy_getinfo") else {
            dlclose(handle)
            return nil
        }
        self.globalInit = globalInit
        self.easyInit = easyInit
        self.easyPerform = easyPerform
        self.easyCleanup = easyCleanup
        self.easyStrerror = easyStrerror
        self.slistAppend = slistAppend
        self.slistFreeAll = slistFreeAll
        self.setopt = setopt
        self.getinfo = getinfo
    }
}
