// PCRE2 needs the code-unit width before its header; Apache uses the 8-bit library.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
