package org.edgelab.http;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.edgelab.http.ByteRanges.ByteRange;
import org.edgelab.http.ByteRanges.Satisfiable;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class MultipartByterangesTest {

    private static byte[] content(int length) {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        return bytes;
    }

    /** Writes the body exactly as a streaming server would: header, range bytes, ..., trailer. */
    private static byte[] body(MultipartByteranges framing, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < framing.partCount(); i++) {
            out.writeBytes(framing.partHeader(i));
            ByteRange range = framing.ranges().get(i);
            out.write(content, (int) range.first(), (int) range.length());
        }
        out.writeBytes(framing.trailer());
        return out.toByteArray();
    }

    @Test
    void bodyMatchesTheRfcLayoutByteForByte() {
        byte[] content = "0123456789abcdefghij".getBytes(StandardCharsets.US_ASCII);
        MultipartByteranges framing = MultipartByteranges.of(List.of(new ByteRange(0, 2), new ByteRange(18, 19)),
                20, "text/plain", "THIS_STRING_SEPARATES");
        String expected = "--THIS_STRING_SEPARATES\r\n"
                + "Content-Type: text/plain\r\n"
                + "Content-Range: bytes 0-2/20\r\n"
                + "\r\n"
                + "012\r\n"
                + "--THIS_STRING_SEPARATES\r\n"
                + "Content-Type: text/plain\r\n"
                + "Content-Range: bytes 18-19/20\r\n"
                + "\r\n"
                + "ij\r\n"
                + "--THIS_STRING_SEPARATES--\r\n";
        byte[] body = body(framing, content);
        assertThat(new String(body, StandardCharsets.US_ASCII)).isEqualTo(expected);
        assertThat(framing.contentLength()).isEqualTo(expected.length());
        assertThat(framing.contentType()).isEqualTo("multipart/byteranges; boundary=THIS_STRING_SEPARATES");
        assertThat(framing.boundary()).isEqualTo("THIS_STRING_SEPARATES");
    }

    @Test
    void partsWithoutContentTypeOmitTheField() {
        MultipartByteranges framing = MultipartByteranges.of(List.of(new ByteRange(0, 0), new ByteRange(2, 2)), 3, null, "b");
        assertThat(new String(framing.partHeader(0), StandardCharsets.US_ASCII))
                .isEqualTo("--b\r\nContent-Range: bytes 0-0/3\r\n\r\n");
        assertThat(body(framing, content(3))).hasSize((int) framing.contentLength());
    }

    @Test
    void randomBoundariesDifferAndAreValid() {
        String a = MultipartByteranges.newBoundary();
        String b = MultipartByteranges.newBoundary();
        assertThat(a).isNotEqualTo(b).matches("[A-Za-z0-9'+._-]{1,70}");
        assertThat(MultipartByteranges.of(List.of(new ByteRange(0, 1)), 2, "x/y").boundary()).startsWith("edgelab-");
    }

    @Test
    void rejectsBadBoundariesAndRangesOutsideTheRepresentation() {
        List<ByteRange> ok = List.of(new ByteRange(0, 1));
        assertThatIllegalArgumentException().isThrownBy(() -> MultipartByteranges.of(ok, 2, null, ""));
        assertThatIllegalArgumentException().isThrownBy(() -> MultipartByteranges.of(ok, 2, null, "a b"));
        assertThatIllegalArgumentException().isThrownBy(() -> MultipartByteranges.of(ok, 2, null, "x".repeat(71)));
        assertThatIllegalArgumentException().isThrownBy(() -> MultipartByteranges.of(ok, 2, null, "a\r\nb"));
        assertThatIllegalArgumentException().isThrownBy(() -> MultipartByteranges.of(List.of(), 2, null, "b"));
        assertThatIllegalArgumentException().isThrownBy(
                () -> MultipartByteranges.of(List.of(new ByteRange(0, 2)), 2, null, "b"));
    }

    @Test
    void returnedByteArraysAreCopies() {
        MultipartByteranges framing = MultipartByteranges.of(List.of(new ByteRange(0, 1)), 2, null, "b");
        framing.partHeader(0)[0] = 'X';
        framing.trailer()[0] = 'X';
        assertThat(framing.partHeader(0)[0]).isEqualTo((byte) '-');
        assertThat(framing.trailer()[0]).isEqualTo((byte) '\r');
    }

    /** The announced Content-Length equals what a writer produces, and every part parses back to its bytes. */
    @Property(tries = 200)
    void contentLengthIsExactAndPartsParseBack(@ForAll @IntRange(min = 2, max = 16) int count,
                                               @ForAll @LongRange(min = 1, max = 10_000) long seed) {
        Random random = new Random(seed);
        int length = 1 + random.nextInt(5000);
        StringBuilder header = new StringBuilder("bytes=");
        for (int i = 0; i < count; i++) {
            int first = random.nextInt(length);
            int last = first + random.nextInt(length - first);
            header.append(i == 0 ? "" : ",").append(first).append('-').append(last);
        }
        if (!(ByteRanges.parse(header.toString(), length, 16) instanceof Satisfiable satisfiable)) {
            throw new AssertionError("expected satisfiable ranges for " + header);
        }
        byte[] content = content(length);
        MultipartByteranges framing = MultipartByteranges.of(satisfiable.ranges(), length, "application/octet-stream");
        byte[] body = body(framing, content);
        assertThat(body).hasSize((int) framing.contentLength());

        // parse it back the way a client would: split on the delimiter, read each part's Content-Range and data
        String text = new String(body, StandardCharsets.ISO_8859_1);
        String delimiter = "--" + framing.boundary();
        assertThat(text).startsWith(delimiter + "\r\n").endsWith("\r\n" + delimiter + "--\r\n");
        String[] parts = text.substring(0, text.length() - ("\r\n" + delimiter + "--\r\n").length()).split("(?:\r\n)?" + java.util.regex.Pattern.quote(delimiter) + "\r\n");
        List<String> nonEmpty = new ArrayList<>();
        for (String p : parts) {
            if (!p.isEmpty()) {
                nonEmpty.add(p);
            }
        }
        assertThat(nonEmpty).hasSize(framing.partCount());
        for (int i = 0; i < nonEmpty.size(); i++) {
            String part = nonEmpty.get(i);
            ByteRange range = framing.ranges().get(i);
            int bodyStart = part.indexOf("\r\n\r\n") + 4;
            assertThat(part.substring(0, bodyStart)).contains("Content-Range: " + range.contentRange(length));
            String data = part.substring(bodyStart);
            byte[] expected = new byte[(int) range.length()];
            System.arraycopy(content, (int) range.first(), expected, 0, expected.length);
            assertThat(data.getBytes(StandardCharsets.ISO_8859_1)).isEqualTo(expected);
        }
    }
}
