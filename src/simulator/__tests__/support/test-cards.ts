/** The sandbox test cards (docs/contract/gateway.md) and a few other numbers, for the simulator's tests. */
export const CARDS = {
  approved: { pan: "4999340261977289", expiryDate: "1230", cvv: "663" },
  approvedMc: { pan: "5593497948332903", expiryDate: "1230", cvv: "399" },
  challenge: { pan: "4349940199004549", expiryDate: "0530", cvv: "396" },
  challengeMc: { pan: "5472886984585836", expiryDate: "1230", cvv: "125" },
  declined: { pan: "5515931855858729", expiryDate: "1230", cvv: "123" },
  threeDSFailed: { pan: "4349940199997007", expiryDate: "1230", cvv: "123" },
  /** Luhn-valid, not a sandbox card: approved without challenge. */
  otherVisa: { pan: "4111111111111111", expiryDate: "1230", cvv: "123" },
  otherAmex: { pan: "378282246310005", expiryDate: "1230", cvv: "1234" },
  notLuhn: { pan: "4111111111111112", expiryDate: "1230", cvv: "123" },
  expired: { pan: "4999340261977289", expiryDate: "1220", cvv: "663" },
} as const
