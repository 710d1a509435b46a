module tally.local/bench/peer/goatcounter

go 1.25.5

tool zgo.at/goatcounter/v2/cmd/goatcounter

require (
	github.com/BurntSushi/toml v1.5.0 // indirect
	github.com/bmatcuk/doublestar/v4 v4.9.1 // indirect
	github.com/fsnotify/fsnotify v1.9.0 // indirect
	github.com/go-chi/chi/v5 v5.2.3 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/gorilla/websocket v1.5.3 // indirect
	github.com/lib/pq v1.10.9 // indirect
	github.com/mattn/go-sqlite3 v1.14.32 // indirect
	github.com/monoculum/formam/v3 v3.6.1-0.20221106124510-6a93f49ac1f8 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/russross/blackfriday/v2 v2.1.0 // indirect
	github.com/sethvargo/go-limiter v1.1.0 // indirect
	github.com/teamwork/reload v1.4.2 // indirect
	golang.org/x/crypto v0.46.0 // indirect
	golang.org/x/image v0.34.0 // indirect
	golang.org/x/mod v0.31.0 // indirect
	golang.org/x/net v0.48.0 // indirect
	golang.org/x/sync v0.19.0 // indirect
	golang.org/x/sys v0.39.0 // indirect
	golang.org/x/text v0.32.0 // indirect
	golang.org/x/tools v0.40.0 // indirect
	zgo.at/blackmail v0.0.0-20251210171630-f1b7a42e3f87 // indirect
	zgo.at/errors v1.4.0 // indirect
	zgo.at/follow v0.0.0-20250412000721-fecf5127a123 // indirect
	zgo.at/gadget v1.0.0 // indirect
	zgo.at/goatcounter/v2 v2.7.0 // indirect
	zgo.at/guru v1.2.0 // indirect
	zgo.at/isbot v1.0.0 // indirect
	zgo.at/jfmt v0.0.0-20250703165133-d1b6c356823b // indirect
	zgo.at/json v0.0.0-20221020004326-fe4f75bb278e // indirect
	zgo.at/otp v0.0.0-20250619162254-96c2c40ec359 // indirect
	zgo.at/runewidth v0.1.0 // indirect
	zgo.at/slog_align v0.0.0-20251129094707-bf509eca6089 // indirect
	zgo.at/termtext v1.5.0 // indirect
	zgo.at/tz v0.0.0-20251201071354-238b46ef6739 // indirect
	zgo.at/z18n v0.0.0-20251211202746-c7089c5c596e // indirect
	zgo.at/zcache/v2 v2.4.1 // indirect
	zgo.at/zdb v0.0.0-20251214135817-c76f633481dc // indirect
	zgo.at/zdb-drivers/go-sqlite3 v0.0.0-20251214132307-3b1fa0323e96 // indirect
	zgo.at/zdb-drivers/pq v0.0.0-20251214132307-3b1fa0323e96 // indirect
	zgo.at/zhttp v0.0.0-20251201061952-9a43cabb6d05 // indirect
	zgo.at/zli v0.0.0-20250704045222-08cb210424f2 // indirect
	zgo.at/zprof v0.0.0-20211217104121-c3c12596d8f0 // indirect
	zgo.at/zstd v0.0.0-20251128053228-ec259dea6715 // indirect
	zgo.at/ztpl v0.0.0-20250628022642-3b2c314e8e05 // indirect
	zgo.at/zvalidate v0.0.0-20250622183046-6812c1c79e1a // indirect
)
