#!/usr/bin/env bash
# What `make test` needs of the machine beyond Python (Debian packages), checked before the
# suite runs: said by name with the line that installs it, rather than tests failing or
# skipping without a word.
#   scripts/check_system.sh             check; exit 1 naming what is missing
#   scripts/check_system.sh --packages  the packages, one line (CI installs them)
# CHROMIUM: the browser the browser tests drive (default /usr/bin/chromium, as tests/conftest.py).
set -uo pipefail

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
# package|what it is for; the check of each is in has() below
NEEDS=(
    "chromium|the browser tests (marker browser) drive $CHROMIUM"
    "fontconfig|the browser tests ask fontconfig which characters a font has (fc-list)"
    "fonts-ipafont-gothic|a font with Japanese (kana and kanji); any other such font will do"
    "fonts-dejavu-core|a font with Cyrillic; any other such font will do"
    "gettext|tests/i18n runs makemessages (xgettext, msgmerge, msguniq, msgattrib)"
)

has() {
    case "$1" in
        chromium) [ -x "$CHROMIUM" ] ;;
        fontconfig) command -v fc-list >/dev/null ;;
        fonts-ipafont-gothic) command -v fc-list >/dev/null && [ -n "$(fc-list :lang=ja family)" ] ;;
        fonts-dejavu-core) command -v fc-list >/dev/null && [ -n "$(fc-list :lang=ru family)" ] ;;
        gettext) command -v xgettext && command -v msgmerge && command -v msguniq \
                     && command -v msgattrib ;;
    esac >/dev/null
}

if [ "${1:-}" = "--packages" ]; then
    packages=()
    for need in "${NEEDS[@]}"; do packages+=("${need%%|*}"); done
    echo "${packages[*]}"
    exit 0
fi

missing=()
for need in "${NEEDS[@]}"; do
    package=${need%%|*}
    if ! has "$package"; then
        missing+=("$package")
        echo "make test: missing $package: ${need#*|}" >&2
    fi
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "make test needs these Debian packages; install them with:" >&2
    echo "    sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
