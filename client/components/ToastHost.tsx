// Toasts of SPEC §9: top right, 4 s default and error, 2 s success, at most 20 on screen.
import { useEffect } from 'react';
import toast, { Toaster, useToasterStore } from 'react-hot-toast';

export const MAX_VISIBLE_TOASTS = 20;

export function ToastHost() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    // The store lists the newest first: dismiss the oldest beyond the limit.
    toasts.filter((t) => t.visible).slice(MAX_VISIBLE_TOASTS).forEach((t) => toast.dismiss(t.id));
  }, [toasts]);

  return (
    <Toaster
      position="top-right"
      containerClassName="toasts"
      toastOptions={{
        duration: 4000,
        className: 'toast',
        success: { duration: 2000, iconTheme: { primary: '#1a1a1a', secondary: '#f4f1e8' } },
        error: { duration: 4000, iconTheme: { primary: '#8b1a1a', secondary: '#f4f1e8' } },
      }}
    />
  );
}
