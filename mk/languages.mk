# Runtimes and sandbox images for the languages other than Python (issue 13). Included by
# the Makefile; RUNTIME_ROOT (Python's) comes from it. One root per toolchain, each beside
# Python's (sandbox_images/runtime/root-path.sh LANGUAGE prints where); c shares cpp's
# root and image tree, javascript and typescript share node's.
.PHONY: runtimes language-images measure-languages

LANGUAGE_ROOTS := cpp java node go rust
# language/version folder : root it is built from
LANGUAGE_IMAGES := c/12:cpp cpp/12:cpp java/17:java javascript/18:node typescript/5.9:node \
	go/1.19:go rust/1.63:rust
ROOT_PATH := sandbox_images/runtime/root-path.sh

runtimes: runtime ## build every language runtime root (debootstrap, once each; needs root)
	@set -e; for r in $(LANGUAGE_ROOTS); do \
	  sandbox_images/runtime/build-language-root.sh $$r "$$($(ROOT_PATH) $$r)"; done

language-images: runtimes ## build the docker sandbox images of every language from the local roots (no registry)
	@set -e; for spec in $(LANGUAGE_IMAGES); do \
	  dir=$${spec%%:*}; root=$${spec##*:}; lang=$${dir%%/*}; ver=$${dir##*/}; \
	  RUNTIME_ROOT="$$($(ROOT_PATH) $$root)" sandbox_images/build-image.sh $$dir \
	    codereward/sandbox-$$lang:$$ver runtime:$$root; done

# `make images` builds the language images too
images: language-images

measure-languages: runtimes ## compile and run times per language, sandboxed and plain (sandbox_images/README.md "Languages")
	python3 sandbox_images/runtime/measure.py $(MEASURE_ARGS)
