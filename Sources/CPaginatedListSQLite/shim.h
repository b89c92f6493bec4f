// The system SQLite, for PaginatedListStore: Debian's libsqlite3-dev on Linux, the SDK's on Apple platforms.
#include <sqlite3.h>
