// libcurl for `htlint probe`, opened with dlopen on first use: linking it would load libcurl and
// its TLS, Kerberos and LDAP libraries into every htlint process (some 6 MB resident) although
// only probe talks to the network. curl_easy_setopt and curl_easy_getinfo are variadic, which
// Swift cannot call, so each argument type gets a small typed wrapper.
#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>

typedef size_t (*htlint_curl_callback)(char *data, size_t size, size_t count, void *user);

typedef struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *h);
    CURLcode (*easy_setopt)(CURL *h, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *h, CURLINFO info, ...);
    CURLcode (*easy_perform)(CURL *h);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
} htlint_curl_api;

/// Opens libcurl and resolves the functions probe uses; NULL when it is not installed. Not
/// thread-safe: the caller loads it once (a Swift `static let`).
static inline const htlint_curl_api *htlint_curl_load(void) {
    static htlint_curl_api api;
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return NULL;
#define HTLINT_CURL_SYMBOL(field, name) \
    if (!(*(void **)(&api.field) = dlsym(lib, name))) return NULL;
    HTLINT_CURL_SYMBOL(global_init, "curl_global_init")
    HTLINT_CURL_SYMBOL(easy_init, "curl_easy_init")
    HTLINT_CURL_SYMBOL(easy_cleanup, "curl_easy_cleanup")
    HTLINT_CURL_SYMBOL(easy_setopt, "curl_easy_setopt")
    HTLINT_CURL_SYMBOL(easy_getinfo, "curl_easy_getinfo")
    HTLINT_CURL_SYMBOL(easy_perform, "curl_easy_perform")
    HTLINT_CURL_SYMBOL(easy_strerror, "curl_easy_strerror")
    HTLINT_CURL_SYMBOL(slist_append, "curl_slist_append")
    HTLINT_CURL_SYMBOL(slist_free_all, "curl_slist_free_all")
#undef HTLINT_CURL_SYMBOL
    return &api;
}

static inline CURLcode htlint_curl_setopt_long(const htlint_curl_api *api, CURL *h, CURLoption option, long value) {
    return api->easy_setopt(h, option, value);
}
static inline CURLcode htlint_curl_setopt_string(const htlint_curl_api *api, CURL *h, CURLoption option, const char *value) {
    return api->easy_setopt(h, option, value);
}
static inline CURLcode htlint_curl_setopt_pointer(const htlint_curl_api *api, CURL *h, CURLoption option, void *value) {
    return api->easy_setopt(h, option, value);
}
static inline CURLcode htlint_curl_setopt_callback(const htlint_curl_api *api, CURL *h, CURLoption option, htlint_curl_callback value) {
    return api->easy_setopt(h, option, value);
}
static inline CURLcode htlint_curl_getinfo_long(const htlint_curl_api *api, CURL *h, CURLINFO info, long *value) {
    return api->easy_getinfo(h, info, value);
}
