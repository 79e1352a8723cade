/**
 * The SIP message codec of the relay (RFC 3261 sections 7, 20 and 25): total, zero-copy and sans-IO.
 *
 * <p>{@link net.hopwise.voip.sip.SipParser} turns a datagram, or a frame cut from a stream by
 * {@link net.hopwise.voip.sip.SipFramer}, into a {@link net.hopwise.voip.sip.SipParseResult}: either a
 * {@link net.hopwise.voip.sip.SipMessage} or a {@link net.hopwise.voip.sip.SipParseError}, never an
 * exception. A message is a retained slice of the bytes read plus offsets (start line, each header's
 * name and value, body); typed values (Via, From/To with tags, CSeq, routes, contacts) are parsed
 * from those bytes on demand. Header lookup understands compact forms, any case, folded values and
 * comma lists. {@link net.hopwise.voip.sip.SipMessageEditor} builds the message to forward by copying
 * the unchanged byte ranges of a parsed one around the edits a proxy makes (push or pop a Via,
 * decrement Max-Forwards, add a Record-Route, replace the body and fix Content-Length), so that header
 * order and every byte the relay does not touch survive, as RFC 3261 section 16.6 asks of a proxy.
 * {@link net.hopwise.voip.sip.SipResponses} and {@link net.hopwise.voip.sip.SipRequests} build the
 * messages a stateful proxy sends on its own (its 100, 400, 483 or 505; the CANCEL of a branch; the
 * ACK of a failure) from the byte ranges of the request they answer, partial messages included.
 *
 * <p>Nothing here reads a clock, starts a thread or touches a channel; the Netty adapters of the
 * relay hold a parser and a framer per transport and pass bytes in. Reference counting is explicit:
 * the caller keeps its input buffer, and releases every result it is handed.
 */
package net.hopwise.voip.sip;
