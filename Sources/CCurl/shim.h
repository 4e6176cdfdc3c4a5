// libcurl for `htlint probe`. curl_easy_setopt and curl_easy_getinfo are variadic, which Swift
// cannot call, so each argument type gets a small typed wrapper.
#include <curl/curl.h>

typedef size_t (*htlint_curl_callback)(char *data, size_t size, size_t count, void *user);

static inline CURLcode htlint_curl_setopt_long(CURL *h, CURLoption option, long value) {
    return curl_easy_setopt(h, option, value);
}
static inline CURLcode htlint_curl_setopt_string(CURL *h, CURLoption option, const char *value) {
    return curl_easy_setopt(h, option, value);
}
static inline CURLcode htlint_curl_setopt_pointer(CURL *h, CURLoption option, void *value) {
    return curl_easy_setopt(h, option, value);
}
static inline CURLcode htlint_curl_setopt_callback(CURL *h, CURLoption option, htlint_curl_callback value) {
    return curl_easy_setopt(h, option, value);
}
static inline CURLcode htlint_curl_getinfo_long(CURL *h, CURLINFO info, long *value) {
    return curl_easy_getinfo(h, info, value);
}
