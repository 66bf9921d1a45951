package org.edgelab.http;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class EntityTagTest {

    @Test
    void parsesStrongAndWeakTags() {
        assertThat(EntityTag.parse("\"xyzzy\"")).isEqualTo(new EntityTag(false, "xyzzy"));
        assertThat(EntityTag.parse("W/\"xyzzy\"")).isEqualTo(new EntityTag(true, "xyzzy"));
        assertThat(EntityTag.parse("\"\"")).isEqualTo(new EntityTag(false, ""));
        assertThat(EntityTag.parse(null)).isNull();
        assertThat(EntityTag.parse("   ")).isNull();
        assertThat(EntityTag.parse("unquoted")).isEqualTo(new EntityTag(false, "unquoted"));
        assertThat(EntityTag.parse("W/\"a\"").toString()).isEqualTo("W/\"a\"");
    }

    @Test
    void comparisonTableOfRfc9110() {
        // RFC 9110 §8.8.3.2
        EntityTag w1 = EntityTag.parse("W/\"1\"");
        EntityTag w2 = EntityTag.parse("W/\"2\"");
        EntityTag s1 = EntityTag.parse("\"1\"");
        EntityTag s2 = EntityTag.parse("\"2\"");
        assertThat(w1.strongMatch(w1)).isFalse();
        assertThat(w1.weakMatch(w1)).isTrue();
        assertThat(w1.strongMatch(w2)).isFalse();
        assertThat(w1.weakMatch(w2)).isFalse();
        assertThat(w1.strongMatch(s1)).isFalse();
        assertThat(w1.weakMatch(s1)).isTrue();
        assertThat(s1.strongMatch(s1)).isTrue();
        assertThat(s1.weakMatch(s1)).isTrue();
        assertThat(s1.strongMatch(s2)).isFalse();
    }

    /**
     * The cache's copy took the unquoted member {@code e} as a tag; the origin's skipped it. RFC 9110
     * §8.8.3 says an entity tag is quoted, so lists now skip such members: see
     * {@link #unquotedMembersOfAListAreNotEntityTags()}.
     */
    @Test
    void listsStarsAndJunk() {
        List<EntityTag> tags = new ArrayList<>();
        assertThat(EntityTag.parseList("W/\"a\", \"b\" , ,\"c,d\" junk, e", tags)).isFalse();
        assertThat(tags).containsExactly(new EntityTag(true, "a"), new EntityTag(false, "b"),
                new EntityTag(false, "c,d"));
        List<EntityTag> none = new ArrayList<>();
        assertThat(EntityTag.parseList(" * ", none)).isTrue();
        assertThat(none).isEmpty();
    }

    @Test
    void unquotedMembersOfAListAreNotEntityTags() {
        // RFC 9110 §8.8.3: entity-tag = [ weak ] DQUOTE *etagc DQUOTE; If-None-Match = "*" / #entity-tag
        List<EntityTag> tags = new ArrayList<>();
        assertThat(EntityTag.parseList("\"abcd\", abc, W/xyz", tags)).isFalse();
        assertThat(tags).containsExactly(new EntityTag(false, "abcd"));
        List<EntityTag> unterminated = new ArrayList<>();
        EntityTag.parseList("\"a\", \"b", unterminated);
        assertThat(unterminated).containsExactly(new EntityTag(false, "a"));
    }

    @Test
    void aSingleValueWithoutQuotesIsReadLeniently() {
        assertThat(EntityTag.parse("W/abc")).isEqualTo(new EntityTag(true, "abc"));
        assertThat(EntityTag.parse("\"abc")).isEqualTo(new EntityTag(false, "abc"));
        assertThat(EntityTag.parse("*")).isNull();
    }
}
