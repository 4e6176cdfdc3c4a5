// Graphviz's layout and rendering library (gvLayout, gvRenderData) and graph API (agmemread).
#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>
