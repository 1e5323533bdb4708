/**
 * The service's transaction ids are int64 (docs/contract/apm.md); JSON.parse turns one above
 * 2^53 into a nearby double, and a refund sent for that id names another transaction. Before
 * parsing, an id written as a bare integer literal of 16 or more digits (where doubles start to
 * lose digits) is quoted, so it arrives as its exact digits. Only the id members are touched:
 * amounts stay numbers, and text inside strings is never matched, because a match must start
 * at the member's quoted name followed by a colon.
 */
const ID_MEMBERS = ["transactionId"]
const LONG_ID = new RegExp(`("(?:${ID_MEMBERS.join("|")})"\\s*:\\s*)(-?\\d{16,})(?=\\s*[,}\\]])`, "g")

export function parseApmJson(text: string): unknown {
  return JSON.parse(text.replace(LONG_ID, '$1"$2"'))
}
