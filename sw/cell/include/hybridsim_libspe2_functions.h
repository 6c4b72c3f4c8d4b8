/* Every function of hybridsim's libspe2.h that reaches the simulator, once:
 * HS_SPE_FN(return type, name, (parameters), (arguments)) for those the PPE's side of the SDK
 * (sw/cell/ppe_sdk.h) carries out as they are, HS_SPE_OWN(...) for those a program needs more
 * of (sw/cell/program/ppe_program.h: its images, its threads' stops, its event units), and
 * HS_SPE_OWN0(return type, name) for those without parameters. libspe2.h declares them from it,
 * the PPE program runtime defines the forwarders and the simulator its function table, so
 * the three cannot disagree. Not for programs to include. */
/* Contexts and programs. */
HS_SPE_OWN(spe_context_ptr_t, spe_context_create, (unsigned int flags, spe_gang_context_ptr_t gang),
           (flags, gang))
HS_SPE_OWN(int, spe_context_destroy, (spe_context_ptr_t spe), (spe))
HS_SPE_OWN(spe_gang_context_ptr_t, spe_gang_context_create, (unsigned int flags), (flags))
HS_SPE_OWN(int, spe_gang_context_destroy, (spe_gang_context_ptr_t gang), (gang))
HS_SPE_OWN(spe_program_handle_t*, spe_image_open, (const char* filename), (filename))
HS_SPE_OWN(int, spe_image_close, (spe_program_handle_t * program), (program))
HS_SPE_OWN(int, spe_program_load, (spe_context_ptr_t spe, spe_program_handle_t* program),
           (spe, program))
HS_SPE_OWN(int, spe_context_run,
           (spe_context_ptr_t spe, unsigned int* entry, unsigned int runflags, void* argp,
            void* envp, spe_stop_info_t* stopinfo),
           (spe, entry, runflags, argp, envp, stopinfo))
HS_SPE_OWN(int, spe_stop_info_read, (spe_context_ptr_t spe, spe_stop_info_t* stopinfo),
           (spe, stopinfo))
/* Mailboxes and signals. */
HS_SPE_FN(int, spe_out_mbox_read, (spe_context_ptr_t spe, unsigned int* mbox_data, int count),
          (spe, mbox_data, count))
HS_SPE_FN(int, spe_out_mbox_status, (spe_context_ptr_t spe), (spe))
HS_SPE_FN(int, spe_in_mbox_write,
          (spe_context_ptr_t spe, unsigned int* mbox_data, int count, unsigned int behavior),
          (spe, mbox_data, count, behavior))
HS_SPE_FN(int, spe_in_mbox_status, (spe_context_ptr_t spe), (spe))
HS_SPE_FN(int, spe_out_intr_mbox_read,
          (spe_context_ptr_t spe, unsigned int* mbox_data, int count, unsigned int behavior),
          (spe, mbox_data, count, behavior))
HS_SPE_FN(int, spe_out_intr_mbox_status, (spe_context_ptr_t spe), (spe))
HS_SPE_FN(int, spe_signal_write,
          (spe_context_ptr_t spe, unsigned int signal_reg, unsigned int data),
          (spe, signal_reg, data))
/* Proxy DMA (SPE-centric: a GET moves into the local store), all with one parameter list. */
#define HS_SPE_PROXY(name)                                                        \
  HS_SPE_FN(int, name,                                                            \
            (spe_context_ptr_t spe, unsigned int ls, void* ea, unsigned int size, \
             unsigned int tag, unsigned int tid, unsigned int rid),               \
            (spe, ls, ea, size, tag, tid, rid))
HS_SPE_PROXY(spe_mfcio_put)
HS_SPE_PROXY(spe_mfcio_putb)
HS_SPE_PROXY(spe_mfcio_putf)
HS_SPE_PROXY(spe_mfcio_get)
HS_SPE_PROXY(spe_mfcio_getb)
HS_SPE_PROXY(spe_mfcio_getf)
#undef HS_SPE_PROXY
HS_SPE_FN(int, spe_mfcio_tag_status_read,
          (spe_context_ptr_t spe, unsigned int mask, unsigned int behavior,
           unsigned int* tag_status),
          (spe, mask, behavior, tag_status))
/* Events. */
HS_SPE_OWN0(spe_event_handler_ptr_t, spe_event_handler_create)
HS_SPE_OWN(int, spe_event_handler_destroy, (spe_event_handler_ptr_t evhandler), (evhandler))
HS_SPE_OWN(int, spe_event_handler_register,
           (spe_event_handler_ptr_t evhandler, spe_event_unit_t* event), (evhandler, event))
HS_SPE_OWN(int, spe_event_handler_deregister,
           (spe_event_handler_ptr_t evhandler, spe_event_unit_t* event), (evhandler, event))
HS_SPE_OWN(int, spe_event_wait,
           (spe_event_handler_ptr_t evhandler, spe_event_unit_t* events, int max_events,
            int timeout),
           (evhandler, events, max_events, timeout))
/* The local store as an effective address. */
HS_SPE_OWN(void*, spe_ls_area_get, (spe_context_ptr_t spe), (spe))
HS_SPE_FN(int, spe_ls_size_get, (spe_context_ptr_t spe), (spe))
/* Information. */
HS_SPE_FN(int, spe_cpu_info_get, (int info_requested, int cpu_node), (info_requested, cpu_node))
