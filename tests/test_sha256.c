/* CUnit suite for core/sha256: the FIPS 180-4 example messages (NIST's
 * "SHA-256 example" set and the one-million-'a' message), each hashed in
 * one piece and fed in uneven pieces across block boundaries. */
#include <string.h>

#include "sha256.h"
#include "test.h"

/* Digest of @n bytes of @msg fed @piece bytes at a time (0 = all at once). */
static void sha256_test_hex(const char *msg, size_t n, size_t piece, char hex[SHA256_HEX_BYTES])
{
	uint8_t d[SHA256_DIGEST_BYTES];
	struct sha256 s;

	sha256_init(&s);
	if (!piece)
		piece = n ? n : 1;
	for (size_t at = 0; at < n; at += piece)
		sha256_update(&s, msg + at, n - at < piece ? n - at : piece);
	sha256_final(&s, d);
	sha256_hex(d, hex);
}

static void test_sha256_vectors(void)
{
	static const struct {
		const char *msg;
		const char *want;
	} v[] = {
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
		  "klmnopqrlmnopqrsmnopqrstnopqrstu",
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
	};
	static const size_t pieces[] = { 0, 1, 3, 55, 63, 64, 65 };
	char hex[SHA256_HEX_BYTES];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		for (size_t p = 0; p < sizeof(pieces) / sizeof(pieces[0]); p++) {
			sha256_test_hex(v[i].msg, strlen(v[i].msg), pieces[p], hex);
			CU_ASSERT_STRING_EQUAL(hex, v[i].want);
		}
	}
}

static void test_sha256_million_a(void)
{
	static char a[1000];
	uint8_t d[SHA256_DIGEST_BYTES];
	char hex[SHA256_HEX_BYTES];
	struct sha256 s;

	memset(a, 'a', sizeof(a));
	sha256_init(&s);
	for (int i = 0; i < 1000; i++)
		sha256_update(&s, a, sizeof(a));
	sha256_final(&s, d);
	sha256_hex(d, hex);
	CU_ASSERT_STRING_EQUAL(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Lengths around the padding boundary (55, 56, 63, 64 bytes) against
 * digests from sha256sum. */
static void test_sha256_padding(void)
{
	static const struct {
		size_t n;
		const char *want;
	} v[] = {
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
	};
	static char a[64];
	char hex[SHA256_HEX_BYTES];

	memset(a, 'a', sizeof(a));
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		sha256_test_hex(a, v[i].n, 0, hex);
		CU_ASSERT_STRING_EQUAL(hex, v[i].want);
	}
}

int test_sha256_register(void)
{
	static const struct test_case tests[] = {
		{ "FIPS 180-4 examples", test_sha256_vectors },
		{ "one million a", test_sha256_million_a },
		{ "padding boundaries", test_sha256_padding },
	};

	return test_suite("sha256", tests);
}
