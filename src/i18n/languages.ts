/**
 * Locale or language tag -> the ISO 639-2 code of the Nexi hosted page's language. Where
 * 639-2 has two codes for a language, the terminology (T) one is used throughout ("deu",
 * not the bibliographic "ger"), so one language always reaches the gateway as one code.
 */
const ISO639_1_TO_2T = [
  "aa:aar ab:abk ae:ave af:afr ak:aka am:amh an:arg ar:ara as:asm av:ava ay:aym az:aze ba:bak",
  "be:bel bg:bul bi:bis bm:bam bn:ben bo:bod br:bre bs:bos ca:cat ce:che ch:cha co:cos cr:cre",
  "cs:ces cu:chu cv:chv cy:cym da:dan de:deu dv:div dz:dzo ee:ewe el:ell en:eng eo:epo es:spa",
  "et:est eu:eus fa:fas ff:ful fi:fin fj:fij fo:fao fr:fra fy:fry ga:gle gd:gla gl:glg gn:grn",
  "gu:guj gv:glv ha:hau he:heb hi:hin ho:hmo hr:hrv ht:hat hu:hun hy:hye hz:her ia:ina id:ind",
  "ie:ile ig:ibo ii:iii ik:ipk io:ido is:isl it:ita iu:iku ja:jpn jv:jav ka:kat kg:kon ki:kik",
  "kj:kua kk:kaz kl:kal km:khm kn:kan ko:kor kr:kau ks:kas ku:kur kv:kom kw:cor ky:kir la:lat",
  "lb:ltz lg:lug li:lim ln:lin lo:lao lt:lit lu:lub lv:lav mg:mlg mh:mah mi:mri mk:mkd ml:mal",
  "mn:mon mr:mar ms:msa mt:mlt my:mya na:nau nb:nob nd:nde ne:nep ng:ndo nl:nld nn:nno no:nor",
  "nr:nbl nv:nav ny:nya oc:oci oj:oji om:orm or:ori os:oss pa:pan pi:pli pl:pol ps:pus pt:por",
  "qu:que rm:roh rn:run ro:ron ru:rus rw:kin sa:san sc:srd sd:snd se:sme sg:sag si:sin sk:slk",
  "sl:slv sm:smo sn:sna so:som sq:sqi sr:srp ss:ssw st:sot su:sun sv:swe sw:swa ta:tam te:tel",
  "tg:tgk th:tha ti:tir tk:tuk tl:tgl tn:tsn to:ton tr:tur ts:tso tt:tat tw:twi ty:tah ug:uig",
  "uk:ukr ur:urd uz:uzb ve:ven vi:vie vo:vol wa:wln wo:wol xh:xho yi:yid yo:yor za:zha zh:zho",
  "zu:zul",
].join(" ")

/**
 * Withdrawn 639-1 codes that Java's Locale (and so some storefront back ends) still emits,
 * and the 639-2/B codes some systems use instead of the T ones: each names a language the
 * table knows, so mapping them is a translation, not a guess.
 */
const ALIASES = [
  "iw:heb in:ind ji:yid mo:ron",
  "alb:sqi arm:hye baq:eus bur:mya chi:zho cze:ces dut:nld fre:fra geo:kat ger:deu gre:ell ice:isl",
  "mac:mkd mao:mri may:msa per:fas rum:ron slo:slk tib:bod wel:cym",
].join(" ")

const pairs = (table: string) => table.split(" ").map((pair) => pair.split(":") as [string, string])

/** Lower-case 639-1 code -> 639-2/T code; exported so the tests can check the table as a whole. */
export const ISO6392_BY_ISO6391: ReadonlyMap<string, string> = new Map(pairs(ISO639_1_TO_2T))
const ISO6392: ReadonlySet<string> = new Set(ISO6392_BY_ISO6391.values())
const ALIAS_TARGETS: ReadonlyMap<string, string> = new Map(pairs(ALIASES))

/**
 * The primary language subtag: two or three letters at the start, ended by the string's end
 * or any non-letter. That covers BCP 47 ("pt-BR"), POSIX ("en_US.UTF-8", "sr@latin") and an
 * Accept-Language header ("it-IT,it;q=0.9"), while "english" matches nothing instead of
 * being read as "en".
 */
const PRIMARY_SUBTAG = /^([a-z]{2,3})(?![a-z])/i

/** True for a lower-case ISO 639-2/T code of a language that has a 639-1 code, e.g. "ita". */
export function isIso6392Language(code: string): boolean {
  return ISO6392.has(code)
}

/**
 * "it-IT" -> "ita", "de_CH" -> "deu", "zh-Hans-CN" -> "zho", "ger" -> "deu". An empty,
 * unknown or unparseable locale gives undefined, so a caller can try its next clue.
 */
export function toIso6392Language(locale: string | null | undefined): string | undefined {
  const primary = PRIMARY_SUBTAG.exec(locale?.trim() ?? "")?.[1]?.toLowerCase()
  if (!primary) return undefined
  if (ISO6392.has(primary)) return primary
  return ISO6392_BY_ISO6391.get(primary) ?? ALIAS_TARGETS.get(primary)
}

const ISO6391_BY_ISO6392: ReadonlyMap<string, string> = new Map(
  [...ISO6392_BY_ISO6391].map(([twoLetter, threeLetter]) => [threeLetter, twoLetter]),
)

/**
 * "it-IT" -> "it", "ita" -> "it", "ger" -> "de": the two-letter code the mobile payment
 * service's `lang` takes, read like toIso6392Language, so both services get one language.
 */
export function toIso6391Language(locale: string | null | undefined): string | undefined {
  const code = toIso6392Language(locale)
  return code === undefined ? undefined : ISO6391_BY_ISO6392.get(code)
}
