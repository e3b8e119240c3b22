import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod } from 'ical-generator';
import { z } from 'zod';
import type { ChannelAdapter } from './types.js';
import { SmtpConfig, sendSmtp, smtpNeedsSecret } from './smtp.js';
import { isTimeZone } from '../rule-matcher.js';

export const CalendarPayload = z
  .strictObject({
    summary: z.string().trim().min(1).max(500),
    description: z.string().max(20_000).optional(),
    location: z.string().max(1000).optional(),
    start: z.iso.datetime({ offset: true }),
    end: z.iso.datetime({ offset: true }),
    /** IANA zone of the times written in the e-mail text; the .ics itself always carries UTC. */
    timezone: z.string().refine(isTimeZone, 'must be an IANA time-zone name').optional(),
    /** Subject of the carrying e-mail; default "Invitation: <summary>". */
    subject: z.string().trim().min(1).max(998).optional(),
    /** Plain-text body of the carrying e-mail. */
    text: z.string().max(20_000).optional(),
  })
  .refine((p) => Date.parse(p.end) > Date.parse(p.start), { message: 'must be after start', path: ['end'] });

/**
 * The invitation itself, kept separate so its shape is testable without SMTP. Times are written
 * in UTC (`DTSTART:…Z`): ical-generator writes a native Date's UTC fields under a TZID when given
 * a zone without a VTIMEZONE generator, which every client would read an offset off; UTC is exact
 * everywhere and clients show it in the reader's own zone.
 */
export function buildInvitation(p: z.infer<typeof CalendarPayload>, organizer: { email: string; name?: string | undefined }, attendee: string, uid: string): string {
  const cal = ical({ prodId: { company: 'Headcount', product: 'CRM' }, method: ICalCalendarMethod.REQUEST });
  cal.createEvent({
    id: uid,
    start: new Date(p.start),
    end: new Date(p.end),
    summary: p.summary,
    ...(p.description !== undefined ? { description: p.description } : {}),
    ...(p.location !== undefined ? { location: p.location } : {}),
    organizer: { name: organizer.name ?? organizer.email, email: organizer.email },
    attendees: [{ email: attendee, rsvp: true, role: ICalAttendeeRole.REQ, status: ICalAttendeeStatus.NEEDSACTION }],
  });
  return cal.toString();
}

/** "1 Dec 2026, 16:00 – 16:30 (Europe/Paris)": the default e-mail text, in the payload's zone. */
export function when(p: Pick<z.infer<typeof CalendarPayload>, 'start' | 'end' | 'timezone'>): string {
  const timeZone = p.timezone ?? 'UTC';
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' });
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, timeStyle: 'short' });
  return `${day.format(new Date(p.start))} – ${time.format(new Date(p.end))} (${timeZone})`;
}

export const calendarChannel: ChannelAdapter = {
  channel: 'calendar',
  contact: 'email',
  kinds: ['invite'],
  secret: 'optional',
  secretNeededFor: smtpNeedsSecret,
  configSchema: SmtpConfig,
  payloadSchema: CalendarPayload,
  async send({ config, payload, to, secret, activityId }) {
    const c = SmtpConfig.parse(config);
    const p = CalendarPayload.parse(payload);
    // The activity id is the UID: a resend of the same activity updates the same event.
    const ics = buildInvitation(p, { email: c.fromAddress, name: c.fromName }, to, `${activityId}@headcount`);
    const messageId = await sendSmtp(c, secret, {
      to,
      subject: p.subject ?? `Invitation: ${p.summary}`,
      text: p.text ?? `${p.summary}\n${when(p)}${p.location ? `\n${p.location}` : ''}`,
      icalEvent: { method: 'REQUEST', filename: 'invite.ics', content: ics },
      headers: { 'X-Headcount-Activity': activityId },
    });
    return { providerMessageId: messageId };
  },
};
