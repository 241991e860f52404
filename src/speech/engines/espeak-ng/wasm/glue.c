/*
 * Ijwi's interface to espeak-ng compiled to WebAssembly (WASI, a reactor: exports to call, no
 * main). GPL-3.0-or-later, as espeak-ng is.
 *
 * One engine per instance. The instance keeps espeak-ng's state between calls, as a process
 * does; the caller sets every setting it relies on for every call. Audio and events leave
 * through imports of module "ijwi", called while espeak-ng synthesises: `word` once per word
 * event, `phoneme` once per phoneme event (its name, up to 8 bytes of UTF-8, NUL-terminated when
 * shorter), `samples` once per buffer (a tenth of a second), whose answer stops the synthesis
 * when it is not 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <espeak-ng/speak_lib.h>

#define IMPORT(name) __attribute__((import_module("ijwi"), import_name(name)))
#define EXPORT(name) __attribute__((export_name(name)))

IMPORT("word") void ijwi_word(int text_position, int length, int audio_position);
IMPORT("phoneme") void ijwi_phoneme(const char *name);
IMPORT("samples") int ijwi_samples(short *samples, int count);

/*
 * wasi-libc has no temporary files; espeak-ng asks for one only to convert a sound icon that is
 * not 22,050 Hz WAV with an outside program, which a sandbox cannot run either. It is refused.
 */
int mkstemp(char *template_name) {
	(void)template_name;
	errno = ENOTSUP;
	return -1;
}

static int on_synth(short *samples, int count, espeak_EVENT *events) {
	for (espeak_EVENT *event = events; event->type != espeakEVENT_LIST_TERMINATED; event++)
		if (event->type == espeakEVENT_WORD)
			ijwi_word(event->text_position, event->length, event->audio_position);
		else if (event->type == espeakEVENT_PHONEME)
			ijwi_phoneme(event->id.string);
	return ijwi_samples(samples, count);
}

/* Buffers of 100 ms, phoneme events on, IPA events: the settings the engine has always run with. */
EXPORT("ijwi_initialize") int ijwi_initialize(void) {
	return espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 100, NULL,
		espeakINITIALIZE_PHONEME_EVENTS | espeakINITIALIZE_PHONEME_IPA | espeakINITIALIZE_DONT_EXIT);
}

EXPORT("ijwi_allocate") void *ijwi_allocate(size_t size) {
	return malloc(size);
}

EXPORT("ijwi_release") void ijwi_release(void *pointer) {
	free(pointer);
}

EXPORT("ijwi_set_voice") int ijwi_set_voice(const char *name) {
	return espeak_SetVoiceByName(name);
}

/* Speaks `text` (UTF-8, NUL-terminated) with these settings; `flags` as espeak_Synth takes them. */
EXPORT("ijwi_synthesize") int ijwi_synthesize(const char *text, unsigned int flags, int rate, int volume,
	int pitch, int range) {
	espeak_SetSynthCallback(on_synth);
	espeak_SetParameter(espeakRATE, rate, 0);
	espeak_SetParameter(espeakVOLUME, volume, 0);
	espeak_SetParameter(espeakPITCH, pitch, 0);
	espeak_SetParameter(espeakRANGE, range, 0);
	int status = espeak_Synth(text, 0, 0, POS_CHARACTER, 0, flags, NULL, NULL);
	espeak_SetSynthCallback(NULL);
	return status;
}

/*
 * The IPA espeak-ng speaks `text` (flags 0) with, phonemes joined by '_', as a NUL-terminated
 * string the caller releases; NULL when it could not be written. The audio made on the way is
 * dropped.
 */
EXPORT("ijwi_ipa") char *ijwi_ipa(const char *text) {
	char *ipa = NULL;
	size_t length = 0;
	FILE *trace = open_memstream(&ipa, &length);
	if (trace == NULL) return NULL;
	espeak_SetSynthCallback(NULL);
	espeak_SetPhonemeTrace(espeakPHONEMES_IPA | ('_' << 8), trace);
	espeak_Synth(text, 0, 0, POS_CHARACTER, 0, 0, NULL, NULL);
	espeak_SetPhonemeTrace(0, NULL);
	if (fclose(trace) != 0) {
		free(ipa);
		return NULL;
	}
	return ipa;
}
