/**
 * Message bodies the relay opens: it finds the SDP of a SIP message whether it is the whole body
 * ({@code application/sdp}) or one part of a multipart body (RFC 5621, RFC 2046 section 5.1), and
 * builds the new body with only that SDP replaced, keeping the other parts, delimiters and headers
 * byte for byte. A malformed multipart body gives a {@link net.hopwise.voip.body.MultipartError}
 * rather than an exception; the relay then forwards the body untouched or rejects the message.
 */
package net.hopwise.voip.body;
