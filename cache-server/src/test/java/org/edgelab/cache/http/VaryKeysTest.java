package org.edgelab.cache.http;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import org.edgelab.storage.api.HeaderField;
import org.edgelab.storage.api.ObjectMetadata;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class VaryKeysTest {

    private static HttpHeaders headers(String... nameValues) {
        HttpHeaders h = new DefaultHttpHeaders();
        for (int i = 0; i < nameValues.length; i += 2) {
            h.add(nameValues[i], nameValues[i + 1]);
        }
        return h;
    }

    @Test
    void fieldsAreLowerCasedDedupedAndSorted() {
        assertThat(VaryKeys.varyFields(headers("Vary", "User-Agent, Accept-Encoding", "vary", "accept-encoding ,Origin")))
                .contains(List.of("accept-encoding", "origin", "user-agent"));
    }

    @Test
    void noVaryIsAnEmptyListAndStarIsEmpty() {
        assertThat(VaryKeys.varyFields(headers())).contains(List.of());
        assertThat(VaryKeys.varyFields(headers("Vary", "*"))).isEmpty();
        assertThat(VaryKeys.varyFields(headers("Vary", "Accept", "Vary", "foo, *"))).isEmpty();
        assertThat(VaryKeys.varyFields(headers("Vary", ",,"))).contains(List.of());
    }

    @Test
    void readsStoredMetadataToo() {
        ObjectMetadata m = new ObjectMetadata(200, List.of(new HeaderField("vary", "Accept-Language")), 0, 0, 0,
                ObjectMetadata.NEVER);
        assertThat(VaryKeys.varyFields(m)).contains(List.of("accept-language"));
        ObjectMetadata star = new ObjectMetadata(200, List.of(new HeaderField("Vary", "*")), 0, 0, 0, ObjectMetadata.NEVER);
        assertThat(VaryKeys.varyFields(star)).isEqualTo(Optional.empty());
    }

    @Test
    void equivalentRequestsShareAKey() {
        List<String> fields = List.of("accept-encoding", "accept-language");
        String a = VaryKeys.secondaryKey(fields, headers("Accept-Encoding", "gzip, br", "Accept-Language", "en-US"));
        String b = VaryKeys.secondaryKey(fields, headers("accept-encoding", "GZIP,br", "ACCEPT-LANGUAGE", "en-us"));
        String c = VaryKeys.secondaryKey(fields, headers("Accept-Encoding", "gzip", "Accept-Encoding", "br",
                "Accept-Language", "en-US"));
        assertThat(a).isEqualTo(b).isEqualTo(c);
    }

    @Test
    void whitespaceCollapsesButCaseMattersForOtherFields() {
        List<String> fields = List.of("user-agent");
        assertThat(VaryKeys.secondaryKey(fields, headers("User-Agent", "Foo   Bar\t1")))
                .isEqualTo(VaryKeys.secondaryKey(fields, headers("User-Agent", "Foo Bar 1")));
        assertThat(VaryKeys.secondaryKey(fields, headers("User-Agent", "foo bar 1")))
                .isNotEqualTo(VaryKeys.secondaryKey(fields, headers("User-Agent", "Foo Bar 1")));
    }

    @Test
    void differentValuesOrAbsenceGiveDifferentKeys() {
        List<String> fields = List.of("accept-encoding");
        String gzip = VaryKeys.secondaryKey(fields, headers("Accept-Encoding", "gzip"));
        String br = VaryKeys.secondaryKey(fields, headers("Accept-Encoding", "br"));
        String absent = VaryKeys.secondaryKey(fields, headers());
        String empty = VaryKeys.secondaryKey(fields, headers("Accept-Encoding", ""));
        assertThat(List.of(gzip, br, absent, empty)).doesNotHaveDuplicates();
        assertThat(VaryKeys.secondaryKey(fields, headers("Accept-Encoding", "gzip, br")))
                .isNotEqualTo(VaryKeys.secondaryKey(fields, headers("Accept-Encoding", "br, gzip")));
    }

    @Test
    void fieldsCannotBleedIntoEachOther() {
        List<String> two = List.of("a", "b");
        assertThat(VaryKeys.secondaryKey(two, headers("A", "1, b=2")))
                .isNotEqualTo(VaryKeys.secondaryKey(two, headers("A", "1", "B", "2")));
    }

    @Test
    void noFieldsIsTheEmptyKeyWhateverTheRequest() {
        assertThat(VaryKeys.secondaryKey(List.of(), headers("Accept-Encoding", "gzip"))).isEmpty();
    }
}
