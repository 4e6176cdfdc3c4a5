// libxml2's HTML parser (htmlCreateMemoryParserCtxt, htmlParseDocument) and tree API.
//
// Debian builds libxml2 with ICU, so its encoding.h includes the system's <unicode/ucnv.h>.
// Swift's Foundation carries its own ICU headers with different definitions of the same
// types, and a module that sees both fails to compile ("'UErrorCode' has different
// definitions"). htlint never touches libxml2's encoding handlers, so the ICU part is left out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/entities.h>
