// The reference QR encoder (libqrencode-dev).
#include <qrencode.h>
