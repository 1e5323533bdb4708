import { summaryLines } from "../nexi-reconcile-pending-payments"

describe("the reconciliation job's log", () => {
  it("says nothing for a run that found nothing, or that another instance ran", () => {
    expect(summaryLines(undefined)).toEqual([])
    expect(summaryLines({ checked: 0, outcomes: {} })).toEqual([])
  })

  it("gives a line to each kind of work the run did", () => {
    const lines = summaryLines({
      checked: 2,
      outcomes: { completed: 1, unchanged: 1 },
      contractEnds: { ended: 1, pending: 0 },
      linkCancels: { cancelled: 0, pending: 1 },
      paymentStarts: { found: 1, refused: 1, pending: 2 },
    })
    expect(lines).toEqual([
      'reconciled 2 pending payment(s): {"completed":1,"unchanged":1}',
      "deleted saved cards' contracts: 1 ended at the gateway, 0 still to end",
      "payment links: 0 cancelled at the gateway, 1 still to cancel",
      "mobile payment starts: 1 found, 1 never made, 2 still to find",
    ])
  })
})
