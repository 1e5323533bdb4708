/**
 * Settings > Nexi, "Card verification": asks the gateway whether a card is valid without
 * charging it (POST /admin/nexi/card-verifications), e.g. before taking a phone order.
 */
import { Button, Container, Heading, Input, Label, StatusBadge, Text } from "@medusajs/ui"
import { type FormEvent, useId, useState } from "react"
import type { NexiCardVerificationResponse } from "../../staff/contract"
import { type CardFormValue, cardPayload, EMPTY_CARD } from "../lib/card-form"
import { nexiAdminApi } from "../lib/nexi-admin-api"
import { operationResultBadge } from "../lib/status"
import { CardFields } from "./card-fields"
import { useSubmission } from "./use-submission"

export function CardVerificationSection() {
  const [card, setCard] = useState<CardFormValue>(EMPTY_CARD)
  const [email, setEmail] = useState("")
  const [result, setResult] = useState<NexiCardVerificationResponse | null>(null)
  const submission = useSubmission()
  const emailId = useId()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setResult(null)
    const body = { card: cardPayload(card), ...(email.trim() ? { customer_email: email.trim() } : {}) }
    // Card data leaves the page with this request and nowhere else.
    setCard(EMPTY_CARD)
    const answer = await submission.submit(() => nexiAdminApi.verifyCard(body))
    if (answer) setResult(answer)
  }

  const badge = result ? operationResultBadge(result.result) : null
  return (
    <Container className="divide-y p-0" data-testid="nexi-card-verification">
      <div className="px-6 py-4">
        <Heading level="h2">Card verification</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          Checks with Nexi that a card is valid, without charging it.
        </Text>
      </div>
      <form className="flex flex-col gap-y-4 px-6 py-4" onSubmit={onSubmit} autoComplete="off">
        <CardFields value={card} onChange={setCard} cvvOptional testIdPrefix="nexi-card-verification" />
        <div className="flex flex-col gap-y-2 sm:max-w-sm">
          <Label htmlFor={emailId} size="small" weight="plus">
            Customer email (optional)
          </Label>
          <Input id={emailId} type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
        </div>
        {submission.error ? (
          <Text size="small" className="text-ui-fg-error" role="alert" data-testid="nexi-card-verification-error">
            {submission.error}
          </Text>
        ) : null}
        {result && badge ? (
          <div
            className="flex items-center gap-x-3"
            role="status"
            data-testid="nexi-card-verification-result"
            data-result={result.result}
          >
            <StatusBadge color={badge.color}>{result.valid ? "Card valid" : badge.label}</StatusBadge>
            <Text size="small">
              {result.circuit ?? ""} {result.masked_card ?? ""}, operation {result.operation_id}
            </Text>
          </div>
        ) : null}
        <div className="flex justify-end">
          <Button size="small" type="submit" isLoading={submission.busy} data-testid="nexi-card-verification-submit">
            Verify card
          </Button>
        </div>
      </form>
    </Container>
  )
}
