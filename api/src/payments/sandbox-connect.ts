/**
 * The sandbox's Connect (PAYMENTS=sandbox): a connected account per user kept in
 * `sandbox_payment_objects`, onboarded on a page of ours that takes Stripe's test bank numbers.
 * Stripe's failing test account is accepted and its payouts fail, as Stripe's do.
 */
import crypto from 'node:crypto';
import type { Database } from '../db/index.js';
import { badRequest, isUniqueViolation } from '../errors.js';
import { SandboxObjectEntity } from './entity.js';
import type { ConnectAccountState, ConnectPayouts } from './connect.js';

/** Stripe's test bank numbers: the routing number, an account that pays out, and one whose payouts fail. */
export const SANDBOX_BANK = { routing: '110000000', pays: '000123456789', fails: '000111111116' } as const;

/** The sandbox's own onboarding page (renderer: Settings → Payouts → test bank form). */
export const SANDBOX_ONBOARDING_PATH = '/settings/payouts/sandbox';
/** The same page, titled for changing the bank of an account already set up. */
const SANDBOX_CHANGE_BANK_PATH = `${SANDBOX_ONBOARDING_PATH}?change=bank`;

interface SandboxAccountData {
  id: string;
  userId: string;
  bankLast4: string | null;
  failsPayouts: boolean;
}

export const unknownTestBank = () =>
  badRequest(
    `This is test mode: use routing number ${SANDBOX_BANK.routing} and account number ${SANDBOX_BANK.pays}.`,
    'invalid_bank_account',
  );

const stateOf = (data: SandboxAccountData): ConnectAccountState => ({
  accountId: data.id,
  detailsSubmitted: data.bankLast4 !== null,
  payoutsEnabled: data.bankLast4 !== null,
  currentlyDue: data.bankLast4 === null ? ['external_account'] : [],
  disabledReason: null,
  bankLast4: data.bankLast4,
});

export class SandboxConnect implements ConnectPayouts {
  readonly name = 'sandbox';

  constructor(
    private readonly db: Database,
    private readonly clock: () => Date,
  ) {}

  private async find(accountId: string): Promise<SandboxAccountData> {
    const row = await this.db.manager.findOneBy(SandboxObjectEntity, { id: accountId, kind: 'account' });
    if (!row) throw badRequest('The sandbox does not know this payouts account.', 'invalid_bank_account');
    return JSON.parse(row.data) as SandboxAccountData;
  }

  async createAccount(input: { userId: string; idempotencyKey: string }): Promise<ConnectAccountState> {
    const key = `account:${input.idempotencyKey}`;
    const found = await this.db.manager.findOneBy(SandboxObjectEntity, { idempotencyKey: key });
    if (found) return stateOf(JSON.parse(found.data) as SandboxAccountData);
    const data: SandboxAccountData = {
      id: `acct_sandbox_${crypto.randomBytes(8).toString('hex')}`,
      userId: input.userId,
      bankLast4: null,
      failsPayouts: false,
    };
    const now = this.clock();
    try {
      await this.db.transaction((em) =>
        em.insert(SandboxObjectEntity, {
          id: data.id,
          kind: 'account',
          idempotencyKey: key,
          secret: null,
          data: JSON.stringify(data),
          createdAt: now,
          updatedAt: now,
        }),
      );
    } catch (err) {
      // A racing twin with the same key made it first: answer that one.
      if (!isUniqueViolation(err)) throw err;
      return this.createAccount(input);
    }
    return stateOf(data);
  }

  async onboardingLink(): Promise<string> {
    return SANDBOX_ONBOARDING_PATH;
  }

  async readAccount(accountId: string): Promise<ConnectAccountState> {
    return stateOf(await this.find(accountId));
  }

  /** The same test bank form: it takes new numbers for an account that is already ready. */
  async dashboardLink(): Promise<string> {
    return SANDBOX_CHANGE_BANK_PATH;
  }

  /** The test bank form: Stripe's test numbers make the account ready; any other is refused and changes nothing. */
  async completeOnboarding(accountId: string, bank: { routingNumber: string; accountNumber: string }): Promise<ConnectAccountState> {
    const pays = bank.accountNumber === SANDBOX_BANK.pays;
    if (bank.routingNumber !== SANDBOX_BANK.routing || (!pays && bank.accountNumber !== SANDBOX_BANK.fails)) throw unknownTestBank();
    const data = { ...(await this.find(accountId)), bankLast4: bank.accountNumber.slice(-4), failsPayouts: !pays };
    await this.db.transaction((em) =>
      em.update(SandboxObjectEntity, { id: accountId }, { data: JSON.stringify(data), updatedAt: this.clock() }),
    );
    return stateOf(data);
  }

  /** Whether payouts to this account fail (Stripe's failing test bank account). */
  async failsPayouts(accountId: string): Promise<boolean> {
    const row = await this.db.manager.findOneBy(SandboxObjectEntity, { id: accountId, kind: 'account' });
    return row ? (JSON.parse(row.data) as SandboxAccountData).failsPayouts : false;
  }
}
