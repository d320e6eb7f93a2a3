# Sourced by the scripts that run Debian's Fairy-Stockfish beside chuhe.
#
# fairy_stockfish [--no-install]: prints the path of the engine: $FAIRY_STOCKFISH if set, else
# `fairy-stockfish` on PATH or in /usr/games (Debian puts it there, often not on PATH). When
# none is found it installs Debian's package (needs root or sudo, and apt-get) unless told
# not to. Fails with a message on stderr when there is still none.
fairy_stockfish() {
    local install=1
    [ "${1:-}" = --no-install ] && install=0
    find_it() {
        if [ -n "${FAIRY_STOCKFISH:-}" ]; then echo "$FAIRY_STOCKFISH"; return 0; fi
        command -v fairy-stockfish 2>/dev/null && return 0
        [ -x /usr/games/fairy-stockfish ] && { echo /usr/games/fairy-stockfish; return 0; }
        return 1
    }
    find_it && return 0
    if [ "$install" = 1 ] && command -v apt-get >/dev/null 2>&1; then
        echo "== installing fairy-stockfish (apt-get)" >&2
        local sudo=""
        [ "$(id -u)" = 0 ] || sudo="sudo"
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq fairy-stockfish >&2 ||
            { $sudo apt-get update -qq >&2 &&
                DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq fairy-stockfish >&2; }
    fi
    find_it && return 0
    echo "fairy-stockfish not found (apt-get install fairy-stockfish, or set FAIRY_STOCKFISH)" >&2
    return 1
}
