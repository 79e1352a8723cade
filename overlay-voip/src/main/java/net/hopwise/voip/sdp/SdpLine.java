package net.hopwise.voip.sdp;

/**
 * One line of a description as offsets into the body: the type letter, where the value starts and
 * ends, and where the next line starts (the line terminator, CRLF, LF or none, lies between).
 *
 * @param type the type letter, or {@code '\0'} for an empty line
 * @param media the index of the m= section the line belongs to, or -1 for the session level
 */
public record SdpLine(char type, int start, int valueStart, int end, int next, int media) {}
