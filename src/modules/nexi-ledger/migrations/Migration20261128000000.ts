import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/**
 * A mobile payment's start is a write too (`apm_payment`), recorded with the request it is sent
 * again with when its answer is lost (`resend`): the service finds a transaction only by the
 * same body under the same key.
 */
export class Migration20261128000000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "nexi_money_write" drop constraint if exists "nexi_money_write_kind_check";`)
    this.addSql(
      `alter table if exists "nexi_money_write" add constraint "nexi_money_write_kind_check" check ("kind" in ('capture', 'refund', 'void', 'cancel_capture', 'moto', 'apm_refund', 'apm_reversal', 'contract_deactivation', 'mit_charge', 'link_creation', 'link_cancellation', 'apm_payment'));`,
    )
    this.addSql(`alter table if exists "nexi_money_write" add column if not exists "resend" jsonb null;`)
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "nexi_money_write" where "kind" = 'apm_payment';`)
    this.addSql(`alter table if exists "nexi_money_write" drop column if exists "resend";`)
    this.addSql(`alter table if exists "nexi_money_write" drop constraint if exists "nexi_money_write_kind_check";`)
    this.addSql(
      `alter table if exists "nexi_money_write" add constraint "nexi_money_write_kind_check" check ("kind" in ('capture', 'refund', 'void', 'cancel_capture', 'moto', 'apm_refund', 'apm_reversal', 'contract_deactivation', 'mit_charge', 'link_creation', 'link_cancellation'));`,
    )
  }
}
