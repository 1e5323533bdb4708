/**
 * transactionIds are int64 in the contract. Ids this simulator issues stay far below
 * 2^53, so a longer digit string parses to a number that simply names no transaction.
 */
export function parseTransactionId(text: string): number | undefined {
  return /^\d{1,19}$/.test(text) ? Number(text) : undefined
}
