/**
 * Settings > Nexi: "Check configuration" runs the doctor (GET /admin/nexi/doctor) on demand, since
 * it calls the gateway and the mobile payment service, and lists every check with its status,
 * what was found and what to change.
 */
import { Badge, Button, Container, Heading, Table, Text } from "@medusajs/ui"
import { useState } from "react"
import type { NexiDoctorCheck, NexiDoctorResponse } from "../../staff/contract"
import { nexiAdminApi } from "../lib/nexi-admin-api"
import { useSubmission } from "./use-submission"

const STATUS_BADGES: Record<NexiDoctorCheck["status"], { label: string; color: "green" | "red" | "orange" }> = {
  pass: { label: "Pass", color: "green" },
  fail: { label: "Fail", color: "red" },
  warn: { label: "Warning", color: "orange" },
}

export function DoctorSection() {
  const [report, setReport] = useState<NexiDoctorResponse>()
  const { busy, error, submit } = useSubmission()
  const check = async () => {
    const answer = await submit(nexiAdminApi.doctor)
    if (answer) setReport(answer)
  }
  return (
    <Container className="divide-y p-0" data-testid="nexi-doctor">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">Check configuration</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Checks the API key, the notification and return URLs, the region currencies, the mobile payment credentials
            and the clock before going live.
          </Text>
        </div>
        <Button size="small" variant="secondary" isLoading={busy} onClick={check} data-testid="nexi-doctor-run">
          {report ? "Check again" : "Check configuration"}
        </Button>
      </div>
      {error ? (
        <Text size="small" className="text-ui-fg-error px-6 py-4" role="alert" data-testid="nexi-doctor-error">
          Could not check the configuration: {error}
        </Text>
      ) : null}
      {report ? (
        <>
          <Text
            size="small"
            className={`px-6 py-4 ${report.blocking ? "text-ui-fg-error" : "text-ui-fg-subtle"}`}
            data-testid="nexi-doctor-verdict"
            data-blocking={report.blocking}
          >
            {report.blocking ? "Not ready to go live: fix the failed checks below." : "No blocking problem found."}
          </Text>
          <Table>
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>Check</Table.HeaderCell>
                <Table.HeaderCell>Status</Table.HeaderCell>
                <Table.HeaderCell>Details</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {report.checks.map((entry) => (
                <CheckRow key={entry.id} check={entry} />
              ))}
            </Table.Body>
          </Table>
        </>
      ) : null}
    </Container>
  )
}

function CheckRow({ check }: { check: NexiDoctorCheck }) {
  const badge = STATUS_BADGES[check.status]
  return (
    <Table.Row data-testid="nexi-doctor-check" data-check={check.id} data-status={check.status}>
      <Table.Cell className="align-top whitespace-nowrap">{check.title}</Table.Cell>
      <Table.Cell className="align-top">
        <Badge size="2xsmall" color={badge.color}>
          {badge.label}
        </Badge>
      </Table.Cell>
      <Table.Cell className="whitespace-normal py-2">
        <Text size="small">{check.detail}</Text>
        {check.fix ? (
          <Text size="small" className="text-ui-fg-subtle" data-testid="nexi-doctor-fix">
            Fix: {check.fix}
          </Text>
        ) : null}
      </Table.Cell>
    </Table.Row>
  )
}
