#include "tlm/payload/extensions.h"

namespace hs {

const char* to_string(TlpKind k) {
  switch (k) {
    case TlpKind::MWr:
      return "MWr";
    case TlpKind::MRd:
      return "MRd";
    case TlpKind::CplD:
      return "CplD";
    case TlpKind::Cpl:
      return "Cpl";
  }
  return "?";
}

}  // namespace hs
