import { Migration } from "@medusajs/framework/mikro-orm/migrations"

/** A money write of a kind of its own: a deleted saved card's contract ended at the gateway. */
export class Migration20261127061500 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table if exists "nexi_money_write" drop constraint if exists "nexi_money_write_kind_check";`)
    this.addSql(
      `alter table if exists "nexi_money_write" add constraint "nexi_money_write_kind_check" check ("kind" in ('capture', 'refund', 'void', 'cancel_capture', 'moto', 'apm_refund', 'apm_reversal', 'contract_deactivation'));`,
    )
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "nexi_money_write" where "kind" = 'contract_deactivation';`)
    this.addSql(`alter table if exists "nexi_money_write" drop constraint if exists "nexi_money_write_kind_check";`)
    this.addSql(
      `alter table if exists "nexi_money_write" add constraint "nexi_money_write_kind_check" check ("kind" in ('capture', 'refund', 'void', 'cancel_capture', 'moto', 'apm_refund', 'apm_reversal'));`,
    )
  }
}
