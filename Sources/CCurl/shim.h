// libcurl (libcurl4-openssl-dev), with the system's TLS and certificate
// store. curl_easy_setopt and curl_easy_getinfo are variadic, which Swift
// cannot call: each kind of argument gets a typed wrapper here.
#include <curl/curl.h>

static inline CURLcode hearth_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode hearth_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode hearth_curl_set_list(CURL *curl, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(curl, option, value);
}

// What the server answers is not read: only its status matters.
static inline size_t hearth_curl_ignore_body(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

static inline CURLcode hearth_curl_ignore_response_body(CURL *curl) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, hearth_curl_ignore_body);
}

static inline CURLcode hearth_curl_response_code(CURL *curl, long *code) {
    return curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, code);
}
