// libcurl (libcurl4-openssl-dev's header), with the system's TLS and
// certificate store. The hub opens the library the first time a push is
// sent (PushSender's CurlLibrary, by dlopen) rather than linking it: with
// the TLS, Kerberos, LDAP and SSH libraries it brings along, libcurl was
// 5.5 MB of a running hub's memory, which a household that sends no push
// to the Internet never uses. So only its types and constants come from
// here, and curl_easy_setopt and curl_easy_getinfo, which are variadic and
// which Swift cannot call, are called by these typed wrappers through the
// pointer the library gave.
#include <curl/curl.h>

typedef CURLcode (*hearth_curl_setopt_function)(CURL *, CURLoption, ...);
typedef CURLcode (*hearth_curl_getinfo_function)(CURL *, CURLINFO, ...);

static inline CURLcode hearth_curl_set_long(void *setopt, CURL *curl, CURLoption option, long value) {
    return ((hearth_curl_setopt_function)setopt)(curl, option, value);
}

static inline CURLcode hearth_curl_set_string(void *setopt, CURL *curl, CURLoption option, const char *value) {
    return ((hearth_curl_setopt_function)setopt)(curl, option, value);
}

static inline CURLcode hearth_curl_set_list(void *setopt, CURL *curl, CURLoption option, struct curl_slist *value) {
    return ((hearth_curl_setopt_function)setopt)(curl, option, value);
}

// What the server answers is not read: only its status matters.
static inline size_t hearth_curl_ignore_body(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

static inline CURLcode hearth_curl_ignore_response_body(void *setopt, CURL *curl) {
    return ((hearth_curl_setopt_function)setopt)(curl, CURLOPT_WRITEFUNCTION, hearth_curl_ignore_body);
}

static inline CURLcode hearth_curl_response_code(void *getinfo, CURL *curl, long *code) {
    return ((hearth_curl_getinfo_function)getinfo)(curl, CURLINFO_RESPONSE_CODE, code);
}
