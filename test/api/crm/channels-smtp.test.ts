import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { allow, autoApproveAll, createOutbox, createSecretUri, crmWorld, quotaOf, send, smtpSink, type CrmWorld, type SmtpSink } from './helpers.js';

describe('email and calendar channels over a real SMTP server', () => {
  let w: CrmWorld;
  let smtp: SmtpSink;
  let emailOutbox: any;
  let calendarOutbox: any;
  const password = 'smtp-pa55-word';

  beforeAll(async () => {
    w = await crmWorld();
    smtp = await smtpSink(password);
    const secretRef = await createSecretUri(w, 'SMTP_PASSWORD', password);
    const config = { host: '127.0.0.1', port: smtp.port, fromAddress: 'founder@acme.test', fromName: 'Acme Founder' };
    emailOutbox = await createOutbox(w, { channel: 'email', name: 'Founder mail', secretRef, config, dailyCap: 10 });
    calendarOutbox = await createOutbox(w, { channel: 'calendar', secretRef, config });
    await allow(w, 'domain', 'prospect.test');
    await autoApproveAll(w);
  });
  afterAll(async () => {
    await smtp.close();
    await w.t.close();
  });

  it('delivers an e-mail with the login from the outbox secret and records sent', async () => {
    const res = await send(w, { channel: 'email', outboxId: emailOutbox.id, to: 'Jane@Prospect.test', payload: { subject: 'Hello Jane', text: 'Quick question — coffee?' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'sent', to: 'jane@prospect.test', channel: 'email', kind: 'message', replayed: false, attempts: 1 });
    expect(res.body.providerMessageId).toBeTruthy();
    const got = smtp.messages.at(-1)!;
    expect(got.user).toBe('founder@acme.test');
    expect(got.envelopeTo).toEqual(['jane@prospect.test']);
    expect(got.mail.subject).toBe('Hello Jane');
    expect(got.mail.text?.trim()).toBe('Quick question — coffee?');
    expect(got.mail.from?.value[0]).toMatchObject({ address: 'founder@acme.test', name: 'Acme Founder' });
    expect(got.mail.headers.get('x-headcount-activity')).toBe(res.body.id);
    expect((await quotaOf(w, emailOutbox.id)).used).toBe(1);
    // The secret value never appears in what the API returns.
    expect(JSON.stringify((await w.t.api('GET', `${w.base}/outboxes`)).body)).not.toContain(password);
  });

  it('sends a METHOD:REQUEST invitation whose .ics parses with ical.js', async () => {
    const payload = { summary: 'Intro call', description: 'Twenty minutes', location: 'Video', start: '2026-12-01T15:00:00Z', end: '2026-12-01T15:30:00Z', timezone: 'Europe/Paris' };
    const res = await send(w, { channel: 'calendar', outboxId: calendarOutbox.id, to: 'sam@prospect.test', payload });
    expect(res.body).toMatchObject({ status: 'sent', kind: 'invite' });
    const got = smtp.messages.at(-1)!;
    expect(got.mail.subject).toBe('Invitation: Intro call');
    const ics = got.mail.attachments.find((a) => a.contentType.startsWith('text/calendar'));
    expect(ics).toBeTruthy();
    const text = ics!.content.toString('utf8');
    // UTC on the wire: a TZID without its VTIMEZONE would leave every client guessing the offset.
    expect(text).toMatch(/^DTSTART:20261201T150000Z\r?$/m);
    expect(text).toMatch(/^DTEND:20261201T153000Z\r?$/m);
    // The e-mail text shows the times in the payload's zone (UTC+1 in December).
    expect(got.mail.text).toContain('1 Dec 2026, 16:00 – 16:30 (Europe/Paris)');
    const cal = new ICAL.Component(ICAL.parse(text));
    expect(cal.getFirstPropertyValue('method')).toBe('REQUEST');
    const vevent = cal.getFirstSubcomponent('vevent')!;
    const event = new ICAL.Event(vevent);
    expect(event.summary).toBe('Intro call');
    expect(event.location).toBe('Video');
    expect(event.uid).toBe(`${res.body.id}@headcount`);
    expect(event.startDate.zone.tzid).toBe('UTC');
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-12-01T15:00:00.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('2026-12-01T15:30:00.000Z');
    const attendee = vevent.getFirstProperty('attendee')!;
    expect(String(attendee.getFirstValue()).toLowerCase()).toBe('mailto:sam@prospect.test');
    expect(attendee.getParameter('rsvp')).toBe('TRUE');
    expect(String(vevent.getFirstPropertyValue('organizer')).toLowerCase()).toBe('mailto:founder@acme.test');
  });

  it('a refused login is failed with the quota unit refunded', async () => {
    const wrong = await createSecretUri(w, 'WRONG', 'not-the-password');
    const outbox = await createOutbox(w, { channel: 'email', secretRef: wrong, config: { host: '127.0.0.1', port: smtp.port, fromAddress: 'founder@acme.test' }, dailyCap: 3 });
    const before = smtp.messages.length;
    const res = await send(w, { channel: 'email', outboxId: outbox.id, to: 'jane@prospect.test', payload: { subject: 'x', text: 'y' } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect(res.body.errorCode).toMatch(/^smtp_/);
    expect(res.body.errorMessage).not.toContain('not-the-password');
    expect(smtp.messages.length).toBe(before);
    expect(await quotaOf(w, outbox.id)).toMatchObject({ used: 0, cap: 3, remaining: 3 });
  });

  it('takes the whole connection from an smtp:// URL secret when the config has only fromAddress', async () => {
    const url = await createSecretUri(w, 'SMTP_URL', `smtp://founder%40acme.test:${encodeURIComponent(password)}@127.0.0.1:${smtp.port}`);
    const outbox = await createOutbox(w, { channel: 'email', secretRef: url, config: { fromAddress: 'founder@acme.test' } });
    const res = await send(w, { channel: 'email', outboxId: outbox.id, to: 'jane@prospect.test', payload: { subject: 'Via URL', text: 'hi' } });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 'sent' });
    const got = smtp.messages.at(-1)!;
    expect(got.user).toBe('founder@acme.test');
    expect(got.mail.subject).toBe('Via URL');
    expect(got.mail.from?.value[0]?.address).toBe('founder@acme.test');
    const invite = await createOutbox(w, { channel: 'calendar', secretRef: url, config: { fromAddress: 'founder@acme.test' } });
    const inv = await send(w, { channel: 'calendar', outboxId: invite.id, to: 'sam@prospect.test', payload: { summary: 'URL call', start: '2026-12-02T15:00:00Z', end: '2026-12-02T15:30:00Z' } });
    expect(inv.body.status).toBe('sent');
    expect(smtp.messages.at(-1)!.mail.subject).toBe('Invitation: URL call');
  });

  it('a host-less outbox whose secret is not an smtp(s) URL fails without quoting the secret, and a wrong URL password is refused', async () => {
    const before = smtp.messages.length;
    for (const value of ['just-a-password', 'https://founder:pw@127.0.0.1/', 'smtp://']) {
      const ref = await createSecretUri(w, `BAD_${before}_${value.length}`, value);
      const outbox = await createOutbox(w, { channel: 'email', secretRef: ref, config: { fromAddress: 'founder@acme.test' }, dailyCap: 2 });
      const res = await send(w, { channel: 'email', outboxId: outbox.id, to: 'jane@prospect.test', payload: { subject: 'x', text: value } });
      expect(res.body).toMatchObject({ status: 'failed', errorCode: 'smtp_secret_not_url' });
      expect(res.body.errorMessage).not.toContain(value === 'smtp://' ? 'smtp:///' : value);
      expect(await quotaOf(w, outbox.id)).toMatchObject({ used: 0 });
    }
    const wrong = await createSecretUri(w, 'WRONG_URL', `smtps://founder:wrong-pass-123@127.0.0.1:${smtp.port}`);
    const outbox = await createOutbox(w, { channel: 'email', secretRef: wrong, config: { fromAddress: 'founder@acme.test' } });
    const res = await send(w, { channel: 'email', outboxId: outbox.id, to: 'jane@prospect.test', payload: { subject: 'x', text: 'y' } });
    // smtps:// means implicit TLS, which this plain-text sink does not speak: the send fails cleanly.
    expect(res.body.status).toBe('failed');
    expect(res.body.errorMessage).not.toContain('wrong-pass-123');
    expect(smtp.messages.length).toBe(before);
  });

  it('a dry-run outbox with a secretRef rehearses without reading it', async () => {
    const ref = await createSecretUri(w, 'DRY_URL', `smtp://founder:${password}@127.0.0.1:${smtp.port}`);
    const dry = await createOutbox(w, { channel: 'dry-run', secretRef: ref });
    const before = smtp.messages.length;
    const res = await send(w, { channel: 'dry-run', outboxId: dry.id, to: 'jane@prospect.test', payload: { subject: 'x' } });
    expect(res.body.status).toBe('sent_dryrun');
    expect(smtp.messages.length).toBe(before);
  });

  it('refuses a payload that does not fit the channel before anything is written', async () => {
    const before = w.t.snapshot();
    const res = await send(w, { channel: 'calendar', outboxId: calendarOutbox.id, to: 'sam@prospect.test', payload: { summary: 'x', start: '2026-12-01T15:00:00Z', end: '2026-12-01T14:00:00Z' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('body.payload.end');
    const bad = await send(w, { channel: 'email', outboxId: emailOutbox.id, to: 'not-an-address', payload: { subject: 'x', text: 'y' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('body.to');
    expect(w.t.snapshot()).toEqual(before);
  });
});
