// libxml2's HTML parser (htmlReadMemory) and tree API.
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
