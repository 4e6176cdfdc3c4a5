import CPCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One reusable PCRE2 match data per thread.
///
/// Creating match data for every search cost a `malloc`/`free` pair, and the interpreter's
/// backtracking frames, which PCRE2 keeps in the match data, were allocated again on every
/// search too. A thread runs one search at a time, so each thread keeps one match data with
/// room for the most groups it has needed, freed when the thread ends.
enum ThreadMatchData {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // The destructor's argument is optional on Linux and not on Darwin; freeing NULL is a no-op.
        pthread_key_create(&key) { pcre2_match_data_free_8(OpaquePointer($0)) }
        return key
    }()

    /// Match data with at least `pairs` ovector pairs, or nil if PCRE2 cannot allocate it.
    static func acquire(pairs: Int) -> OpaquePointer? {
        if let raw = pthread_getspecific(key) {
            let data = OpaquePointer(raw)
            if Int(pcre2_get_ovector_count_8(data)) >= pairs { return data }
            pcre2_match_data_free_8(data)
            pthread_setspecific(key, nil)
        }
        // A few spare pairs, so patterns with slightly more groups do not reallocate.
        guard let data = pcre2_match_data_create_8(UInt32(max(pairs, 16)), nil) else { return nil }
        pthread_setspecific(key, UnsafeRawPointer(data))
        return data
    }

    /// Drops the thread's match data after a search that hit a limit: its backtracking frames
    /// may have grown towards the heap limit, which no ordinary search needs to keep. (A heavy
    /// search that succeeds keeps its frames until the thread ends; PCRE2 10.42 cannot report
    /// their size.)
    static func discard() {
        guard let raw = pthread_getspecific(key) else { return }
        pcre2_match_data_free_8(OpaquePointer(raw))
        pthread_setspecific(key, nil)
    }
}
