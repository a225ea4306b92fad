/* A QEMU TCG plugin (plugin API version 1, QEMU 7.2) that counts the guest instructions
   executed and, among them, the vector loads and stores on the stack (q or d registers to or
   from [sp ...]) and the other vector instructions. Debian ships no plugins, so this one is
   built here: gcc -O2 -shared -fPIC -o libinsn_count.so insn_count.c */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <regex.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t, void *);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, qemu_plugin_vcpu_tb_trans_cb_t);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *, enum qemu_plugin_op,
                                                void *, uint64_t);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t);
char *qemu_plugin_insn_disas(const struct qemu_plugin_insn *);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, qemu_plugin_udata_cb_t, void *);
void qemu_plugin_outs(const char *);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;
static uint64_t total, stack_vector, vector;
static regex_t stack_re, vector_re;

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        char *text = qemu_plugin_insn_disas(insn);
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &total, 1);
        if (regexec(&stack_re, text, 0, NULL, 0) == 0)
            qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
                                                       &stack_vector, 1);
        else if (regexec(&vector_re, text, 0, NULL, 0) == 0)
            qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
                                                       &vector, 1);
        free(text);
    }
}

static void at_exit(qemu_plugin_id_t id, void *p) {
    char buf[160];
    snprintf(buf, sizeof buf, "insns: %llu stack vector loads/stores: %llu other vector: %llu\n",
             (unsigned long long)total, (unsigned long long)stack_vector,
             (unsigned long long)vector);
    qemu_plugin_outs(buf);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id,
        const qemu_info_t *info, int argc, char **argv) {
    regcomp(&stack_re, "^(ldr|str|ldp|stp|ldur|stur)[[:space:]]+[qd][0-9]+.*\\[sp", REG_EXTENDED);
    regcomp(&vector_re, "(^|[[:space:],])(v[0-9]+\\.|[qd][0-9]+)", REG_EXTENDED);
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
